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
}
