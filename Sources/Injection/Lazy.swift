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
    private let box: LazyBox
    /// The resolve to make when it is not `resolve(Service.self, name:)` on the box's resolver.
    private let make: (@Sendable () throws -> Service)?

    init(resolver: any Resolver, name: String?) {
        box = LazyBox(resolver: resolver, name: name)
        make = nil
    }

    init(resolver: any Resolver, make: @escaping @Sendable () throws -> Service) {
        box = LazyBox(resolver: resolver, name: nil)
        self.make = make
    }

    /// The service, resolved on the first access. A failure stops the program with the full
    /// ``ResolutionError`` text; use ``resolve()`` to handle it.
    public var instance: Service {
        if let made = box.made {
            return made.assumingMemoryBound(to: Service.self).pointee
        }
        return resolvedOrStop { try makeValue() }
    }

    /// The service, resolved on the first call; a failure throws, and the next call tries again.
    public func resolve() throws -> Service {
        if let made = box.made {
            return made.assumingMemoryBound(to: Service.self).pointee
        }
        return try makeValue()
    }

    @inline(never)
    private func makeValue() throws -> Service {
        box.lock()
        defer { box.unlock() }
        if let storage = box.storage {
            return storage.assumingMemoryBound(to: Service.self).pointee
        }
        let instance: Service
        if let make {
            instance = try make()
        } else {
            instance = try box.resolver.resolve(Service.self, name: box.name)
        }
        let pointer = UnsafeMutablePointer<Service>.allocate(capacity: 1)
        pointer.initialize(to: instance)
        box.publish(UnsafeMutableRawPointer(pointer), of: Service.self)
        return instance
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

/// A ``Lazy``'s state: the resolver, and the instance once made.
///
/// Not generic over the service: a `Lazy` is made on every resolve that asks for one, and the
/// generic class's metadata cost a runtime lookup each time. The instance lives behind a raw
/// pointer that ``Lazy`` types, and its type is kept to destroy it.
///
/// `@unchecked Sendable`: `storage` is written once, while `isLocked` is held, before
/// `isMade` is set with release ordering, and read only after `isMade` is seen set with
/// acquire ordering or while `isLocked` is held. A `Lazy` of a non-`Sendable` service is not
/// `Sendable`, so such an instance never leaves its thread through it.
final class LazyBox: @unchecked Sendable {
    let resolver: any Resolver
    let name: String?
    /// Held while resolving: a spin lock in the box itself (a lock object of its own cost an
    /// allocation per `Lazy`); two threads meet on it only at the first access.
    private let isLocked = Atomic<Bool>(false)
    /// Set once `storage` holds the instance: reads after that take no lock.
    private let isMade = Atomic<Bool>(false)
    /// The instance, once made.
    @exclusivity(unchecked) private(set) var storage: UnsafeMutableRawPointer?
    /// Its type, to destroy it.
    @exclusivity(unchecked) private var storedType: Any.Type?

    init(resolver: any Resolver, name: String?) {
        self.resolver = resolver
        self.name = name
    }

    deinit {
        if let storage, let storedType {
            Self.destroy(storage, as: storedType)
        }
    }

    /// The instance, once made; `nil` before.
    @inline(__always)
    var made: UnsafeMutableRawPointer? {
        isMade.load(ordering: .acquiring) ? storage : nil
    }

    func lock() {
        while !isLocked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            sched_yield()
        }
    }

    func unlock() {
        isLocked.store(false, ordering: .releasing)
    }

    /// Keeps `instance`, an initialized `type`; called once, while locked.
    func publish<Service>(_ instance: UnsafeMutableRawPointer, of type: Service.Type) {
        storage = instance
        storedType = type
        isMade.store(true, ordering: .releasing)
    }

    private static func destroy<Service>(_ storage: UnsafeMutableRawPointer, as type: Service.Type) {
        let typed = storage.assumingMemoryBound(to: Service.self)
        typed.deinitialize(count: 1)
        typed.deallocate()
    }
}
