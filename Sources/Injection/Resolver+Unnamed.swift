extension Resolver {
    /// Returns the unnamed service registered for `type`.
    ///
    /// - Throws: ``ResolutionError``, as ``Resolver/resolve(_:name:)`` does.
    public func resolve<Service>(_ type: Service.Type) throws -> Service {
        try resolve(type, name: nil)
    }

    /// Returns the unnamed service registered for `type`, passing `argument` to its factory.
    ///
    /// - Throws: ``ResolutionError``, as ``Resolver/resolve(_:name:argument:)`` does.
    public func resolve<Service, Argument>(_ type: Service.Type, argument: Argument) throws -> Service {
        try resolve(type, name: nil, argument: argument)
    }

    /// Returns the unnamed service of the type the context asks for (Resolver's
    /// `resolver.resolve()`): `Fetcher(networking: try r.resolve())`.
    public func resolve<Service>() throws -> Service {
        try resolve(Service.self, name: nil)
    }

    /// Returns the unnamed service registered for `type`, or `nil` when none is registered
    /// (Swinject's optional `resolve`); every other failure throws.
    public func resolve<Service>(_ type: Service?.Type) throws -> Service? {
        try resolveIfRegistered(Service.self, name: nil)
    }

    /// Returns the service registered for `type` under `name`, or `nil` when none is.
    public func resolve<Service>(_ type: Service?.Type, name: String?) throws -> Service? {
        try resolveIfRegistered(Service.self, name: name)
    }

    /// Returns the unnamed service registered for `type`, or `nil` when none is.
    public func resolveIfRegistered<Service>(_ type: Service.Type) throws -> Service? {
        try resolveIfRegistered(type, name: nil)
    }

    /// Returns the service registered for `type` under `name` whose factory takes the
    /// arguments' types, in order, passing them to it (Swinject's `arguments:`).
    ///
    /// - Throws: ``ResolutionError`` as ``resolve(_:name:argument:)`` does.
    public func resolve<Service, First, Second, each Other>(
        _ type: Service.Type, name: String? = nil, arguments first: First, _ second: Second, _ other: repeat each Other
    ) throws -> Service {
        try resolve(type, name: name, argument: ArgumentList(first: first, second: second, other: (repeat each other)))
    }
}
