// SwinjectAutoregistration's `autoregister`: the factory is an initializer whose parameters
// are each resolved by type. Parameter packs cover any number of them (0 to 9 and beyond)
// with one declaration per shape; a `Sendable` service and another are told apart as in
// `register` (Container+Registration.swift).

extension Container {
    /// Registers `initializer` as the way to make `type`, resolving each of its parameters by
    /// type: `container.autoregister(PriceFetcher.self, initializer: BitcoinPriceFetcher.init)`.
    ///
    /// The dependencies are resolved unnamed, in parameter order, through the resolution's
    /// resolver (so they share its graph). A dependency may be a `Lazy<T>`, `Provider<T>` or
    /// `T?`.
    ///
    /// - Returns: A handle for the registration's modifiers.
    @discardableResult
    public func autoregister<Service: Sendable, each Dependency>(
        _ type: Service.Type,
        name: String? = nil,
        scope: Scope? = nil,
        initializer: @escaping @Sendable (repeat each Dependency) throws -> Service
    ) -> Registration<Service> {
        register(type, name: name, scope: scope) { r in
            try initializer(repeat try r.resolve((each Dependency).self, name: nil))
        }
    }

    /// Autoregisters a service that is not `Sendable`, in ``UnsharedScope/transient`` or
    /// ``UnsharedScope/graph``.
    @discardableResult
    public func autoregister<Service, each Dependency>(
        _ type: Service.Type,
        name: String? = nil,
        scope: UnsharedScope? = nil,
        initializer: @escaping @Sendable (repeat each Dependency) throws -> Service
    ) -> Registration<Service> {
        register(type, name: name, scope: scope) { r in
            try initializer(repeat try r.resolve((each Dependency).self, name: nil))
        }
    }

    /// Registers `initializer`, one of whose parameters is given at resolve time: the one of
    /// type `Argument`; the others are resolved by type. Resolve it with
    /// `resolve(_:name:argument:)`.
    @discardableResult
    public func autoregister<Service: Sendable, Argument, each Dependency>(
        _ type: Service.Type,
        name: String? = nil,
        scope: Scope? = nil,
        argument: Argument.Type,
        initializer: @escaping @Sendable (repeat each Dependency) throws -> Service
    ) -> Registration<Service> {
        register(type, name: name, scope: scope) { (r, argument: Argument) in
            try initializer(repeat try Self.dependency((each Dependency).self, resolver: r, arguments: argument))
        }
    }

    /// Registers `initializer`, several of whose parameters are given at resolve time: each of
    /// the argument types (which must differ) is given, the others resolved by type. Resolve it
    /// with `resolve(_:name:arguments:_:...)`, the arguments in the order of their types here.
    @discardableResult
    public func autoregister<Service: Sendable, First, Second, each Other, each Dependency>(
        _ type: Service.Type,
        name: String? = nil,
        scope: Scope? = nil,
        arguments first: First.Type,
        _ second: Second.Type,
        _ other: repeat (each Other).Type,
        initializer: @escaping @Sendable (repeat each Dependency) throws -> Service
    ) -> Registration<Service> {
        let definition = Entry<Service>.Definition(
            name: name, scope: scope ?? defaultScope,
            argument: ArgumentType.list(First.self, Second.self, repeat (each Other).self),
            make: { resolver, _, argument in
                // The lookup matched the arguments' types before the call.
                let list = argument as! ArgumentList<First, Second, repeat each Other>
                return try initializer(repeat try Self.dependency(
                    (each Dependency).self, resolver: resolver, arguments: list.first, list.second, repeat each list.other))
            })
        return store(definition, cache: makeCache(definition.scope, Service.self))
    }

    /// The argument whose type is `Dependency`, or else `Dependency` resolved by type.
    private static func dependency<Dependency, each Argument>(
        _ type: Dependency.Type, resolver: any Resolver, arguments: repeat each Argument
    ) throws -> Dependency {
        for argument in repeat each arguments {
            // By static type: an argument of a subclass or conforming type is not a match.
            if isSameType(Dependency.self, argument), let match = argument as? Dependency {
                return match
            }
        }
        return try resolver.resolve(type, name: nil)
    }

    /// Whether `value`'s static type is `Type`.
    private static func isSameType<Type, Value>(_ type: Type.Type, _ value: Value) -> Bool {
        Type.self == Value.self
    }
}
