import Glibc
import Synchronization

/// A service resolved on first use, once (Swinject's `Lazy`): register `T` and resolve
/// `Lazy<T>`, or take one as a dependency.
///
/// A `Lazy` made inside a factory resolves within the graph it was made in, even after that
/// resolve returned: a ``Scope/graph`` instance it yields is the one the rest of the graph got.
/// Resolving `Lazy<T>` throws ``ResolutionError/Code/missingRegistration`` (naming `T`) when
/// `T` is not registered.
///
/// `Sendable` when `T` is; the first access from several threads at once resolves once.
public struct Lazy<Service> {
    private let box: LazyBox<Service>

    init(resolver: any Resolver, name: String?) {
        box = LazyBox(resolver: resolver, name: name, make: nil)
    }

    init(resolver: any Resolver, make: @escaping @Sendable () throws -> Service) {
        box = LazyBox(resolver: resolver, name: nil, make: make)
    }

    /// The service, resolved on the first access. A failure stops the program with the full
    /// ``ResolutionError`` text; use ``resolve()`` to handle it.
    public var instance: Service {
        if box.isMade {
            return box.madeValue
        }
        return resolvedOrStop { try box.value() }
    }

    /// The service, resolved on the first call; a failure throws, and the next call tries again.
    public func resolve() throws -> Service {
        try box.value()
    }
}

extension Lazy: Sendable where Service: Sendable {}

extension Lazy: ResolvableWrapper {
    static var wrappedType: Any.Type { Service.self }

    static func make(resolver: any Resolver, container: Container, name: String?) throws -> Self {
        try WrappedMissing.check(Service.self, in: container, name: name, argument: nil)
        return Lazy(resolver: resolver, name: name)
    }

    static func make<Argument>(resolver: any Resolver, container: Container, name: String?, argument: Argument) throws -> Self {
        try WrappedMissing.check(Service.self, in: container, name: name, argument: ObjectIdentifier(Argument.self))
        let captured = CapturedArgument(value: argument)
        return Lazy(resolver: resolver) { try resolver.resolve(Service.self, name: name, argument: captured.value) }
    }
}

/// A ``Lazy``'s state: the resolve to make, and its result once made.
///
/// `@unchecked Sendable`: `storage` is written once, while `isLocked` is held, before `made`
/// is set with release ordering, and read only after `made` is seen set with acquire ordering
/// or while `isLocked` is held. A `Lazy` of a non-`Sendable` service is not `Sendable`, so such an instance
/// never leaves its thread through it.
final class LazyBox<Service>: @unchecked Sendable {
    private let resolver: any Resolver
    private let name: String?
    /// The resolve to make when it is not `resolver.resolve(Service.self, name: name)`.
    private let make: (@Sendable () throws -> Service)?
    /// Held while resolving: a spin lock in the box itself, since a `Lazy` is made on every
    /// resolve that asks for one (a lock object of its own cost an allocation each time), and
    /// two threads meet on it only at the first access.
    private let isLocked = Atomic<Bool>(false)
    /// Set once `storage` holds the instance: reads after that take no lock.
    private let made = Atomic<Bool>(false)
    /// The instance, once made. A pointer rather than a `Service?`: generic code would look
    /// the metadata of `Service?` up on every read.
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<Service>?

    init(resolver: any Resolver, name: String?, make: (@Sendable () throws -> Service)?) {
        self.resolver = resolver
        self.name = name
        self.make = make
    }

    deinit {
        storage?.deinitialize(count: 1)
        storage?.deallocate()
    }

    /// True once the instance is made; then ``madeValue`` may be read from any thread.
    @inline(__always)
    var isMade: Bool {
        made.load(ordering: .acquiring)
    }

    /// The instance; only after ``isMade`` was seen true.
    @inline(__always)
    var madeValue: Service {
        storage.unsafelyUnwrapped.pointee
    }

    @inline(__always)
    func value() throws -> Service {
        if made.load(ordering: .acquiring) {
            return storage.unsafelyUnwrapped.pointee
        }
        return try makeValue()
    }

    @inline(never)
    private func makeValue() throws -> Service {
        while !isLocked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            sched_yield()
        }
        defer { isLocked.store(false, ordering: .releasing) }
        if let storage {
            return storage.pointee
        }
        let instance: Service
        if let make {
            instance = try make()
        } else {
            instance = try resolver.resolve(Service.self, name: name)
        }
        let pointer = UnsafeMutablePointer<Service>.allocate(capacity: 1)
        pointer.initialize(to: instance)
        storage = pointer
        made.store(true, ordering: .releasing)
        return instance
    }
}
