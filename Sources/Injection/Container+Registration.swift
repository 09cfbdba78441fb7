// Registration overloads come in pairs: a `Sendable` service may take any ``Scope``, another
// only an ``UnsharedScope`` (so `.singleton` for it does not compile). Within a pair, the
// factory takes the resolver alone, nothing (Resolver's `register { Service() }`), one
// argument, or several.

extension Container {
    /// Registers `factory` as the way to make `type` under `name`, replacing any registration
    /// this container already has for that type, name and (lack of) argument; a parent's is
    /// left alone.
    ///
    /// - Parameters:
    ///   - type: The type resolvers ask for, often a protocol.
    ///   - name: Distinguishes several registrations of one type; `nil` for the unnamed one.
    ///   - scope: How long an instance lives; ``defaultScope`` (``Scope/graph`` unless the
    ///     container was made with another) when `nil`.
    ///   - factory: Makes the instance, resolving its dependencies through the resolver it is
    ///     given. Runs without any container lock held; what it throws is reported as
    ///     ``ResolutionError/Code/factoryFailed``.
    /// - Returns: A handle for ``Registration/implements(_:name:)``, ``Registration/scope(_:)-(Scope)``
    ///   and ``Registration/initCompleted(_:)``.
    @discardableResult
    public func register<Service: Sendable>(
        _ type: Service.Type = Service.self,
        name: String? = nil,
        scope: Scope? = nil,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) -> Registration<Service> {
        let definition = Entry<Service>.Definition(name: name, scope: scope ?? defaultScope, factory: factory)
        return store(definition, cache: makeCache(definition.scope, Service.self))
    }

    /// Registers a service that is not `Sendable`: as ``register(_:name:scope:factory:)-(_,_,Scope?,_)``,
    /// in ``UnsharedScope/transient`` or ``UnsharedScope/graph`` only.
    @discardableResult
    public func register<Service>(
        _ type: Service.Type = Service.self,
        name: String? = nil,
        scope: UnsharedScope? = nil,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) -> Registration<Service> {
        store(.init(name: name, scope: unshared(scope), factory: factory))
    }

    /// Registers a factory that needs no resolver (Resolver's `register { Service() }`).
    @discardableResult
    public func register<Service: Sendable>(
        _ type: Service.Type = Service.self,
        name: String? = nil,
        scope: Scope? = nil,
        factory: @escaping @Sendable () throws -> Service
    ) -> Registration<Service> {
        let definition = Entry<Service>.Definition(name: name, scope: scope ?? defaultScope, factory: { _ in try factory() })
        return store(definition, cache: makeCache(definition.scope, Service.self))
    }

    /// Registers a factory that needs no resolver, for a service that is not `Sendable`.
    @discardableResult
    public func register<Service>(
        _ type: Service.Type = Service.self,
        name: String? = nil,
        scope: UnsharedScope? = nil,
        factory: @escaping @Sendable () throws -> Service
    ) -> Registration<Service> {
        store(.init(name: name, scope: unshared(scope), factory: { _ in try factory() }))
    }

    /// Registers `factory`, which takes an argument given at resolve time, as the way to make
    /// `type` under `name`; resolve it with ``resolve(_:name:argument:)``.
    ///
    /// Registrations of one type and name that take arguments of different types live side
    /// by side; each resolve picks the one its argument's static type matches. In
    /// ``Scope/graph`` a registration with an argument is made anew on every resolve; in
    /// shared scopes the instance made with the first argument is kept, whatever later
    /// resolves pass.
    @discardableResult
    public func register<Service: Sendable, Argument>(
        _ type: Service.Type,
        name: String? = nil,
        scope: Scope? = nil,
        factory: @escaping @Sendable (any Resolver, Argument) throws -> Service
    ) -> Registration<Service> {
        let definition = Self.definition(name: name, scope: scope ?? defaultScope, factory: factory)
        return store(definition, cache: makeCache(definition.scope, Service.self))
    }

    /// Registers a factory that takes an argument, for a service that is not `Sendable`.
    @discardableResult
    public func register<Service, Argument>(
        _ type: Service.Type,
        name: String? = nil,
        scope: UnsharedScope? = nil,
        factory: @escaping @Sendable (any Resolver, Argument) throws -> Service
    ) -> Registration<Service> {
        store(Self.definition(name: name, scope: unshared(scope), factory: factory))
    }

    /// Registers `factory`, which takes several arguments given at resolve time; resolve it
    /// with `resolve(_:name:arguments:_:...)`. It is told apart from other registrations of
    /// the type and name by the arguments' types, in order.
    @discardableResult
    public func register<Service: Sendable, First, Second, each Other>(
        _ type: Service.Type,
        name: String? = nil,
        scope: Scope? = nil,
        factory: @escaping @Sendable (any Resolver, First, Second, repeat each Other) throws -> Service
    ) -> Registration<Service> {
        let definition = Self.definition(name: name, scope: scope ?? defaultScope, factory: factory)
        return store(definition, cache: makeCache(definition.scope, Service.self))
    }

    /// Registers a factory that takes several arguments, for a service that is not `Sendable`.
    @discardableResult
    public func register<Service, First, Second, each Other>(
        _ type: Service.Type,
        name: String? = nil,
        scope: UnsharedScope? = nil,
        factory: @escaping @Sendable (any Resolver, First, Second, repeat each Other) throws -> Service
    ) -> Registration<Service> {
        store(Self.definition(name: name, scope: unshared(scope), factory: factory))
    }

    static func definition<Service, Argument>(
        name: String?, scope: Scope, factory: @escaping @Sendable (any Resolver, Argument) throws -> Service
    ) -> Entry<Service>.Definition {
        .init(name: name, scope: scope, argument: ArgumentType(Argument.self), make: { resolver, _, argument in
            // The lookup matched the argument's type against ArgumentType before the call.
            try factory(resolver, argument as! Argument)
        })
    }

    static func definition<Service, First, Second, each Other>(
        name: String?, scope: Scope, factory: @escaping @Sendable (any Resolver, First, Second, repeat each Other) throws -> Service
    ) -> Entry<Service>.Definition {
        .init(name: name, scope: scope, argument: ArgumentType.list(First.self, Second.self, repeat (each Other).self), make: {
            resolver, _, argument in
            // The lookup matched the arguments' types before the call; see ArgumentType.list.
            let arguments = argument as! ArgumentList<First, Second, repeat each Other>
            return try factory(resolver, arguments.first, arguments.second, repeat each arguments.other)
        })
    }

    /// Stores a new registration and tells the behaviors.
    func store<Service>(
        _ definition: Entry<Service>.Definition, cache: (any InstanceCache<Service>)? = nil
    ) -> Registration<Service> {
        let registration = Registration(container: self, entry: Entry(definition, cache: cache))
        registration.add()
        let behaviors = behaviors.withLock { $0 }
        for behavior in behaviors {
            behavior.container(self, didRegisterType: Service.self, toService: registration, withName: definition.name)
        }
        return registration
    }

    private func unshared(_ scope: UnsharedScope?) -> Scope {
        scope?.scope ?? (defaultScope.isShared ? .graph : defaultScope)
    }

    /// Where a `Sendable` service's instance is kept in `scope`; `nil` for transient and graph.
    func makeCache<Service: Sendable>(_ scope: Scope, _ type: Service.Type) -> (any InstanceCache<Service>)? {
        switch scope.kind {
        case .transient, .graph:
            return nil
        case .singleton:
            return SingletonCache<Service>()
        case .weak:
            return WeakCache<Service>()
        case .custom:
            let cache: any InstanceCache<Service> = scope.custom?.storage.map { StorageCache<Service>(storage: $0()) }
                ?? SingletonCache<Service>()
            scope.custom?.track(cache)
            return cache
        }
    }
}
