extension Container {
    /// Registers `factory` as the way to make `type` under `name`, replacing any registration
    /// this container already has for that type and name (a parent's is left alone).
    ///
    /// This overload serves types that are not `Sendable`, and so only the ``Scope/transient``
    /// and ``Scope/graph`` scopes: a shared instance of a non-`Sendable` type could be used by
    /// two threads at once. Asking for ``Scope/singleton`` or ``Scope/weak`` here is a
    /// programming error and stops the program; make the type `Sendable` instead.
    ///
    /// - Parameters:
    ///   - type: The type resolvers ask for, often a protocol.
    ///   - name: Distinguishes several registrations of one type; `nil` for the unnamed one.
    ///   - scope: How long an instance lives; ``Scope/graph`` by default.
    ///   - factory: Makes the instance, resolving its dependencies through the resolver it is
    ///     given. Runs without any container lock held; what it throws is reported as
    ///     ``ResolutionError/Code/factoryFailed``.
    /// - Returns: A handle for ``Registration/implements(_:name:)``.
    @discardableResult
    public func register<Service>(
        _ type: Service.Type,
        name: String? = nil,
        scope: Scope = .graph,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) -> Registration<Service> {
        requireUnshared(scope, type)
        return store(Entry(name: name, scope: scope, argument: nil, cache: nil, factory: factory), name: name)
    }

    /// Registers `factory` as the way to make `type` under `name`, replacing any registration
    /// this container already has for that type and name (a parent's is left alone).
    ///
    /// Every scope is available because the type is `Sendable`.
    ///
    /// - Parameters:
    ///   - type: The type resolvers ask for, often a protocol.
    ///   - name: Distinguishes several registrations of one type; `nil` for the unnamed one.
    ///   - scope: How long an instance lives; ``Scope/graph`` by default.
    ///   - factory: Makes the instance, resolving its dependencies through the resolver it is
    ///     given. Runs without any container lock held; what it throws is reported as
    ///     ``ResolutionError/Code/factoryFailed``.
    /// - Returns: A handle for ``Registration/implements(_:name:)``.
    @discardableResult
    public func register<Service: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        scope: Scope = .graph,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) -> Registration<Service> {
        store(Entry(name: name, scope: scope, argument: nil, cache: makeCache(scope), factory: factory), name: name)
    }

    /// Registers `factory`, which takes an argument given at resolve time, as the way to make
    /// `type` under `name`; resolve it with ``resolve(_:name:argument:)``.
    ///
    /// This overload serves types that are not `Sendable`, and so only the ``Scope/transient``
    /// and ``Scope/graph`` scopes (asking for another stops the program). In ``Scope/graph``
    /// a registration with an argument is made anew on every resolve.
    ///
    /// - Returns: A handle for ``Registration/implements(_:name:)``.
    @discardableResult
    public func register<Service, Argument>(
        _ type: Service.Type,
        name: String? = nil,
        scope: Scope = .graph,
        factory: @escaping @Sendable (any Resolver, Argument) throws -> Service
    ) -> Registration<Service> {
        requireUnshared(scope, type)
        return store(Entry(name: name, scope: scope, argument: ArgumentType(Argument.self), cache: nil, make: {
            resolver, _, argument in
            // The argument's type was checked against ArgumentType before the call.
            try factory(resolver, argument as! Argument)
        }), name: name)
    }

    /// Registers `factory`, which takes an argument given at resolve time, as the way to make
    /// `type` under `name`; resolve it with ``resolve(_:name:argument:)``.
    ///
    /// In ``Scope/graph`` a registration with an argument is made anew on every resolve; in
    /// ``Scope/singleton`` and ``Scope/weak`` the instance made with the first argument is
    /// kept, whatever later resolves pass.
    ///
    /// - Returns: A handle for ``Registration/implements(_:name:)``.
    @discardableResult
    public func register<Service: Sendable, Argument>(
        _ type: Service.Type,
        name: String? = nil,
        scope: Scope = .graph,
        factory: @escaping @Sendable (any Resolver, Argument) throws -> Service
    ) -> Registration<Service> {
        store(Entry(name: name, scope: scope, argument: ArgumentType(Argument.self), cache: makeCache(scope), make: {
            resolver, _, argument in
            // The argument's type was checked against ArgumentType before the call.
            try factory(resolver, argument as! Argument)
        }), name: name)
    }

    private func store<Service>(_ entry: Entry<Service>, name: String?) -> Registration<Service> {
        add(entry, name: name)
        return Registration(container: self, entry: entry)
    }

    private func makeCache<Service: Sendable>(_ scope: Scope) -> (any InstanceCache<Service>)? {
        switch scope {
        case .transient, .graph:
            nil
        case .singleton:
            SingletonCache<Service>()
        case .weak:
            WeakCache<Service>()
        }
    }

    private func requireUnshared<Service>(_ scope: Scope, _ type: Service.Type) {
        guard scope == .transient || scope == .graph else {
            let name = typeName(type)
            fatalError("""
                \(name) is not Sendable, so it cannot be registered with scope .\(scope): \
                that instance would be shared across threads. Make \(name) Sendable, \
                or register it as .graph or .transient.
                """)
        }
    }
}
