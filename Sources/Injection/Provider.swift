/// Makes a service anew on each use (Swinject's `Provider`): register `T` and resolve
/// `Provider<T>`, or take one as a dependency.
///
/// Each ``instance`` is a fresh resolve through the resolver the provider was made with, so
/// the registration's scope decides: a transient service is new every time, a singleton is
/// the same one. A provider made in a factory resolves within that graph while the resolve
/// that made it runs; once that resolve has returned, each access is a graph of its own
/// (Swinject's provider starts a new graph too), from the container the resolve started at.
///
/// `Sendable` when `T` is.
public struct Provider<Service> {
    private let make: @Sendable () throws -> Service

    init(_ make: @escaping @Sendable () throws -> Service) {
        self.make = make
    }

    /// A newly resolved service. A failure stops the program with the full
    /// ``ResolutionError`` text; use ``resolve()`` to handle it.
    public var instance: Service {
        resolvedOrStop(make)
    }

    /// A newly resolved service.
    ///
    /// - Throws: ``ResolutionError``, as the resolve would.
    public func resolve() throws -> Service {
        try make()
    }
}

extension Provider: Sendable where Service: Sendable {}

extension Provider: ResolvableWrapper {
    static var wrappedType: Any.Type { Service.self }

    static func make(resolver: any Resolver, container: Container, name: String?) throws -> Self {
        try WrappedMissing.check(Service.self, in: container, name: name, argument: nil)
        // Cast once, here: a cast on every access cost more than the resolve.
        guard let resolution = resolver as? Resolution else {
            return Provider { try resolver.resolve(Service.self, name: name) }
        }
        return Provider { try resolution.currentResolver().resolve(Service.self, name: name) }
    }

    static func make<Argument>(resolver: any Resolver, container: Container, name: String?, argument: Argument) throws -> Self {
        try WrappedMissing.check(Service.self, in: container, name: name, argument: ObjectIdentifier(Argument.self))
        let captured = CapturedArgument(value: argument)
        guard let resolution = resolver as? Resolution else {
            return Provider { try resolver.resolve(Service.self, name: name, argument: captured.value) }
        }
        return Provider { try resolution.currentResolver().resolve(Service.self, name: name, argument: captured.value) }
    }
}
