import ConcurrencyHelpers

/// How long an instance made by a registration's factory lives, and who shares it.
///
/// The default for every registration is the container's ``Container/defaultScope``, itself
/// ``graph`` unless the container was made with another. Swinject's and Resolver's names are
/// here too: ``container`` and ``application`` are ``singleton``, ``shared`` is ``weak``,
/// ``unique`` is ``transient``.
///
/// Beyond the four built-in lifetimes, a scope can be made with ``init(name:)`` (kept like a
/// singleton until ``reset()``; ``cached`` is one) or ``init(name:storage:)`` (kept by a type of
/// your own, one instance of it per registration).
///
/// Only a `Sendable` service can be registered in a scope that shares an instance beyond one
/// resolve: anything but ``transient`` and ``graph``. A non-`Sendable` service's registration
/// takes an ``UnsharedScope`` instead, so asking for `.singleton` for it does not compile.
public struct Scope: Sendable, Hashable, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
        case transient
        case graph
        case singleton
        case weak
        /// ``cached`` and the scopes made with ``init(name:)`` or ``init(name:storage:)``.
        case custom(ObjectIdentifier)
    }

    let kind: Kind
    /// For a custom scope: its name, its storage and the caches to empty on ``reset()``.
    let custom: CustomScope?

    private init(_ kind: Kind) {
        self.kind = kind
        custom = nil
    }

    /// A new instance on every resolve.
    public static let transient = Scope(.transient)
    /// One instance per top-level resolution: every service resolved while building the
    /// object graph of one `resolve` call shares it. The default.
    ///
    /// A registration that takes an argument is made anew for every resolve in this scope,
    /// because two resolves in one graph may pass different arguments.
    public static let graph = Scope(.graph)
    /// One instance per container that holds the registration, made lazily by the first
    /// resolve, exactly once even when several threads ask at the same moment.
    ///
    /// The instance belongs to the registering container and its factory resolves its
    /// dependencies there, even when a child container asks for it. A factory that throws
    /// caches nothing: the next resolve runs it again. ``Container/resetObjectScope(_:)``
    /// empties it.
    ///
    /// A cycle through a property set in `initCompleted` closes as in Swinject: the factory
    /// runs again for the property, and the instance it made is the one kept. A cycle through
    /// initializers alone is reported as an error on one thread; if two
    /// threads start the cycle from opposite ends at the same moment, each waits for the
    /// other's singleton instead.
    public static let singleton = Scope(.singleton)
    /// Shared while something else holds a strong reference to it, then made anew.
    ///
    /// Like ``singleton`` the instance belongs to the registering container. Only class
    /// instances can be held weakly: a value-type instance is not kept, so for values this
    /// scope behaves as ``transient``.
    public static let weak = Scope(.weak)
    /// Resolver's `.cached`: kept like a ``singleton`` until `Scope.cached.reset()` empties it in
    /// every container (or ``Container/resetObjectScope(_:)`` in one and its ancestors).
    public static let cached = Scope(name: "cached")

    /// Swinject's name for ``singleton``.
    public static var container: Scope { .singleton }
    /// Resolver's name for ``singleton``.
    public static var application: Scope { .singleton }
    /// Resolver's name for ``weak``.
    public static var shared: Scope { .weak }
    /// Resolver's name for ``transient``.
    public static var unique: Scope { .transient }

    /// Makes a scope whose instances are kept like a ``singleton``'s until ``reset()``: a
    /// session, a signed-in user. Keep the scope in a `static let`; two scopes made with the
    /// same name are still two scopes.
    public init(name: String) {
        let custom = CustomScope(name: name, storage: nil)
        self.custom = custom
        kind = .custom(ObjectIdentifier(custom))
    }

    /// Makes a scope whose instances are kept by a storage of your own: `storage` makes one
    /// for each registration in the scope, when it is registered.
    ///
    /// The container asks the storage for its instance on every resolve and stores a new one
    /// only while no other resolve of that registration is making one.
    public init(name: String, storage: @escaping @Sendable () -> any InstanceStorage) {
        let custom = CustomScope(name: name, storage: storage)
        self.custom = custom
        kind = .custom(ObjectIdentifier(custom))
    }

    /// Empties every instance this scope keeps, in every container; the next resolve makes a
    /// new one. For ``singleton`` and ``weak`` use ``Container/resetObjectScope(_:)``, which
    /// empties a container's and its ancestors'; for ``transient`` and ``graph`` there is
    /// nothing to empty.
    public func reset() {
        custom?.resetAll()
    }

    /// The scope's name: `transient`, `graph`, `singleton`, `weak`, or a custom scope's.
    public var description: String {
        switch kind {
        case .transient: "transient"
        case .graph: "graph"
        case .singleton: "singleton"
        case .weak: "weak"
        case .custom: custom?.name ?? "custom"
        }
    }

    /// True for the scopes that keep an instance beyond one resolve.
    var isShared: Bool {
        kind != .transient && kind != .graph
    }

    /// Two scopes are equal when they are the same built-in scope or the same custom one (made
    /// by the same `init`, not merely with the same name).
    public static func == (lhs: Scope, rhs: Scope) -> Bool {
        lhs.kind == rhs.kind
    }

    /// Hashes what ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
    }
}

/// The scopes a service that is not `Sendable` can be registered in: those that never hand
/// one instance to two resolves that may run on different threads.
///
/// ``Container/register(_:name:scope:factory:)-(_,_,UnsharedScope?,_)`` takes this type for a
/// non-`Sendable` service, so `.singleton` there is a compile-time error rather than a data
/// race; make the service `Sendable` to share it.
public struct UnsharedScope: Sendable, Hashable {
    /// The scope it stands for.
    public let scope: Scope

    private init(_ scope: Scope) {
        self.scope = scope
    }

    /// A new instance on every resolve (``Scope/transient``).
    public static let transient = UnsharedScope(.transient)
    /// One instance per top-level resolution (``Scope/graph``).
    public static let graph = UnsharedScope(.graph)
    /// Resolver's name for ``transient``.
    public static var unique: UnsharedScope { .transient }
}

/// A user-defined place to keep one registration's instance, for a scope made with
/// ``Scope/init(name:storage:)``.
///
/// The container calls it from any thread, so it must be `Sendable`: keep the instance behind
/// a lock (`Synchronization.Mutex`).
public protocol InstanceStorage: AnyObject, Sendable {
    /// The instance kept, if any.
    var instance: (any Sendable)? { get }
    /// Keeps `instance`; called after the factory made it.
    func store(_ instance: any Sendable)
    /// Forgets the instance kept: called by ``Scope/reset()`` and
    /// ``Container/resetObjectScope(_:)``.
    func reset()
}

/// A custom scope's identity: its name, how to make a storage for one registration, and the
/// caches made for it so far (to empty them on ``Scope/reset()``).
final class CustomScope: Sendable {
    let name: String
    let storage: (@Sendable () -> any InstanceStorage)?
    private let caches = Lock<[WeakResettable]>([])

    init(name: String, storage: (@Sendable () -> any InstanceStorage)?) {
        self.name = name
        self.storage = storage
    }

    /// Remembers `cache`, weakly, for ``resetAll()``.
    func track(_ cache: any ResettableCache) {
        caches.withLock { caches in
            caches.removeAll { $0.cache == nil }
            caches.append(WeakResettable(cache: cache))
        }
    }

    func resetAll() {
        let alive = caches.withLock { caches in
            caches.removeAll { $0.cache == nil }
            return caches.compactMap(\.cache)
        }
        for cache in alive {
            cache.reset()
        }
    }
}

/// A cache held weakly, so that a scope does not keep its registrations alive.
struct WeakResettable: Sendable {
    weak var cache: (any ResettableCache)?
}
