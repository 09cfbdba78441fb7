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
public final class Container: Resolver, Sendable, CustomStringConvertible {
    /// The container whose registrations this one falls back to, if any.
    public let parent: Container?
    /// The scope of a registration that names none (Swinject's `defaultObjectScope`,
    /// Resolver's `defaultScope`). A non-`Sendable` service cannot be shared, so it gets
    /// ``Scope/graph`` when this scope would share it.
    public let defaultScope: Scope

    /// Every entry under the key of type `S` is an `Entry<S>`. Resolving threads contend for
    /// it, so it is a ``Lock`` rather than a `Mutex`.
    let entries = Lock(RegistrationTable())
    /// Told of every registration as it is added.
    let behaviors: Lock<[any Behavior]>

    /// Creates an empty container, optionally a child of `parent`, whose registrations default
    /// to `defaultScope`, and which tells `behaviors` of each registration.
    public init(parent: Container? = nil, defaultScope: Scope = .graph, behaviors: [any Behavior] = []) {
        self.parent = parent
        self.defaultScope = defaultScope
        self.behaviors = Lock(behaviors)
    }

    /// Creates a container and lets `registeringClosure` register its services (Swinject's
    /// `Container { c in … }`).
    public convenience init(
        parent: Container? = nil,
        defaultScope: Scope = .graph,
        behaviors: [any Behavior] = [],
        registeringClosure: (Container) -> Void
    ) {
        self.init(parent: parent, defaultScope: defaultScope, behaviors: behaviors)
        registeringClosure(self)
    }

    /// Returns the service registered for `type` under `name` (`nil` for the unnamed one),
    /// looking in this container first and then in its ancestors.
    ///
    /// `Lazy<T>`, `Provider<T>` and `T?` resolve when `T` is registered; `T?` is `nil` when
    /// it is not.
    ///
    /// - Throws: ``ResolutionError`` with code ``ResolutionError/Code/missingRegistration``
    ///   (naming the names that are registered), ``ResolutionError/Code/dependencyCycle``
    ///   (naming the path), ``ResolutionError/Code/argumentTypeMismatch`` when the
    ///   registration needs an argument, or ``ResolutionError/Code/factoryFailed`` when a
    ///   factory throws (naming the innermost registration whose factory threw).
    public func resolve<Service>(_ type: Service.Type, name: String? = nil) throws -> Service {
        // The hit in this container first, with nothing but the entry out of the lock: no
        // tuple to copy and no error to throw, on the path nearly every resolve takes. A miss
        // (every `Lazy`, `Provider` or optional resolve) throws nothing either.
        if let found = entries.withLock({ $0[ObjectIdentifier(type), name] }) {
            // Safe: `register` and `implements` store only `Entry<S>` under a key of type `S`.
            return try makeTopLevel(unsafeDowncast(found, to: Entry<Service>.self), owner: nil, argument: nil)
        }
        let (found, owner) = lookupInAncestors(RegistrationKey(type, name: name))
        guard let found else {
            return try resolveUnregistered(type, name: name, resolver: self)
        }
        return try makeTopLevel(unsafeDowncast(found, to: Entry<Service>.self), owner: owner, argument: nil)
    }

    /// Returns the service registered for `type` under `name` whose factory takes an
    /// `Argument`, passing `argument` to it. Registrations of one type and name that take
    /// other arguments (or none) are told apart by the argument's static type.
    ///
    /// - Throws: ``ResolutionError`` as ``resolve(_:name:)`` does, and with code
    ///   ``ResolutionError/Code/argumentTypeMismatch`` when the type and name are registered
    ///   only with no argument or arguments of other types.
    public func resolve<Service, Argument>(
        _ type: Service.Type, name: String? = nil, argument: Argument
    ) throws -> Service {
        do {
            let (entry, owner) = try entry(type, name: name, argument: Argument.self)
            return try makeTopLevel(entry, owner: owner, argument: argument)
        } catch is LookupMiss {
            return try resolveUnregistered(type, name: name, argument: argument, resolver: self)
        }
    }

    /// Returns the service registered for `type` under `name`, or `nil` when there is no such
    /// registration here or in an ancestor. Every other failure (a missing dependency, a
    /// cycle, a factory's error) still throws.
    public func resolveIfRegistered<Service>(_ type: Service.Type, name: String? = nil) throws -> Service? {
        let (found, owner) = lookup(type, name: name)
        guard let found else {
            return try makeWrapper(type, name: name, resolver: self)
        }
        return try makeTopLevel(unsafeDowncast(found, to: Entry<Service>.self), owner: owner, argument: nil)
    }

    /// As ``resolveIfRegistered(_:name:)``, for a registration whose factory takes an `Argument`.
    public func resolveIfRegistered<Service, Argument>(
        _ type: Service.Type, name: String? = nil, argument: Argument
    ) throws -> Service? {
        let (found, owner) = lookup(type, name: name, argument: Argument.self)
        guard let found else {
            return try makeWrapper(type, name: name, argument: argument, resolver: self)
        }
        return try makeTopLevel(unsafeDowncast(found, to: Entry<Service>.self), owner: owner, argument: argument)
    }

    /// Returns the unnamed service registered for `type`, or `nil` when none is registered
    /// (Swinject's optional `resolve`); every other failure throws.
    public func resolve<Service>(_ type: Service?.Type) throws -> Service? {
        try resolveIfRegistered(Service.self, name: nil)
    }

    /// Every registration of this container (not its ancestors'), one a line, sorted.
    public var description: String {
        let lines = entries.withLock { $0.allEntries }.map(\.summary).sorted()
        return lines.isEmpty ? "[]" : "[\n" + lines.map { "    " + $0 }.joined(separator: ",\n") + "\n]"
    }

    @inline(__always)
    private func makeTopLevel<Service>(_ entry: Entry<Service>, owner: Container?, argument: Any?) throws -> Service {
        if entry.hasCache, let cache = entry.cache {
            return try cache.instance {
                // Shared instances resolve their dependencies where they are registered.
                try Resolution.resolve(entry, origin: owner ?? self, parent: nil, owner: nil, argument: argument)
            }
        }
        return try Resolution.resolve(entry, origin: self, parent: nil, owner: owner, argument: argument)
    }
}
