import ConcurrencyHelpers

/// Holds registrations and makes services from them.
///
/// ```swift
/// let container = Container()
/// container.register(HTTPClient.self, scope: .singleton) { _ in URLClient() }
/// container.register(WeatherService.self, name: "oslo") { r in
///     WeatherService(city: "Oslo", client: try r.resolve(HTTPClient.self))
/// }
/// let weather = try container.resolve(WeatherService.self, name: "oslo")
/// ```
///
/// A child container (`Container(parent:)`) sees its parent's registrations and can override
/// them without changing the parent. A resolution that starts at the child uses the child's
/// overrides throughout, including for the dependencies of services registered only in the
/// parent; ``Scope/singleton`` and ``Scope/weak`` instances stay with the container that
/// registered them and resolve their dependencies there.
///
/// All methods are safe to call from any thread. The registration table sits behind a lock
/// that is never held while a factory runs, so a slow factory delays nothing but the
/// resolves that wait for its result.
public final class Container: Resolver, Sendable {
    /// The container whose registrations this one falls back to, if any.
    public let parent: Container?

    /// Every entry under the key of type `S` is an `Entry<S>`. Resolving threads contend for
    /// it, so it is a ``Lock`` rather than a `Mutex`.
    let entries = Lock(RegistrationTable())

    /// Creates an empty container, optionally a child of `parent`.
    public init(parent: Container? = nil) {
        self.parent = parent
    }

    /// Returns the service registered for `type` under `name` (`nil` for the unnamed one),
    /// looking in this container first and then in its ancestors.
    ///
    /// - Throws: ``ResolutionError`` with code ``ResolutionError/Code/missingRegistration``
    ///   (naming the names that are registered), ``ResolutionError/Code/dependencyCycle``
    ///   (naming the path), ``ResolutionError/Code/argumentTypeMismatch`` when the
    ///   registration needs an argument, or ``ResolutionError/Code/factoryFailed`` when a
    ///   factory throws (naming the innermost registration whose factory threw).
    public func resolve<Service>(_ type: Service.Type, name: String? = nil) throws -> Service {
        let (entry, owner) = try lookup(type, name: name)
        try entry.checkNoArgument()
        return try makeTopLevel(entry, owner: owner, argument: nil)
    }

    /// Returns the service registered for `type` under `name`, passing `argument` to its
    /// factory.
    ///
    /// - Throws: ``ResolutionError`` as ``resolve(_:name:)`` does, and with code
    ///   ``ResolutionError/Code/argumentTypeMismatch`` when the registration takes no argument
    ///   or one of another type than `Argument`.
    public func resolve<Service, Argument>(
        _ type: Service.Type, name: String? = nil, argument: Argument
    ) throws -> Service {
        let (entry, owner) = try lookup(type, name: name)
        let given = GivenArgument(argument)
        try entry.checkArgument(given)
        return try makeTopLevel(entry, owner: owner, argument: given.value)
    }

    @inline(__always)
    private func makeTopLevel<Service>(_ entry: Entry<Service>, owner: Container?, argument: Any?) throws -> Service {
        if let cache = entry.cache {
            return try cache.instance {
                // Shared instances resolve their dependencies where they are registered.
                try Resolution.resolve(entry, origin: owner ?? self, parent: nil, owner: nil, argument: argument)
            }
        }
        return try Resolution.resolve(entry, origin: self, parent: nil, owner: owner, argument: argument)
    }
}
