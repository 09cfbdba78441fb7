/// A type the container makes, unregistered, from a registration of the type it wraps:
/// ``Lazy``, ``Provider`` and `Optional`.
protocol ResolvableWrapper {
    /// What is reported missing when the wrapped type is not registered.
    static var wrappedType: Any.Type { get }
    /// Wraps the registration of the wrapped type under `name`, resolved through `resolver`.
    /// Throws ``WrappedMissing`` when `container` (where the resolve started) has no such
    /// registration. (Not an optional: generic code would look the metadata of `Self?` up on
    /// every call.)
    static func make(resolver: any Resolver, container: Container, name: String?) throws -> Self
    /// As ``make(resolver:container:name:)``, for a registration that takes an `Argument`.
    static func make<Argument>(resolver: any Resolver, container: Container, name: String?, argument: Argument) throws -> Self
}

/// What a wrapper wraps is not registered.
struct WrappedMissing: Error {
    /// Throws unless `container` resolves `type` under `name` with `argument` (`nil`: none).
    static func check<Wrapped>(_ type: Wrapped.Type, in container: Container, name: String?, argument: ObjectIdentifier?) throws {
        guard container.isRegistered(type, name: name, argument: argument) else {
            throw WrappedMissing()
        }
    }
}

extension Optional: ResolvableWrapper {
    static var wrappedType: Any.Type { Wrapped.self }

    static func make(resolver: any Resolver, container: Container, name: String?) throws -> Self {
        try resolver.resolveIfRegistered(Wrapped.self, name: name)
    }

    static func make<Argument>(resolver: any Resolver, container: Container, name: String?, argument: Argument) throws -> Self {
        try resolver.resolveIfRegistered(Wrapped.self, name: name, argument: argument)
    }
}

/// A value handed to a ``Lazy`` or ``Provider`` to pass on at each resolve. `@unchecked`: the
/// argument's type is the caller's, and the wrapper passes it on exactly as the caller would
/// have; a wrapper is `Sendable` only when its service is, and documents that its argument is
/// shared by every resolve it makes.
struct CapturedArgument<Value>: @unchecked Sendable {
    let value: Value
}

/// Runs `body`, or stops the program with the error's full text: for the property wrappers
/// and ``Lazy/instance``, which cannot throw.
func resolvedOrStop<Service>(_ body: () throws -> Service) -> Service {
    do {
        return try body()
    } catch {
        fatalError("\(error)")
    }
}
