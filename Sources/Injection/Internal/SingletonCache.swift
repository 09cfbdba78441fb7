import ConcurrencyHelpers
import Synchronization

/// Holds a singleton (or a `.cached` or named custom scope's instance), created once per reset.
///
/// Once made, the instance is published through an atomic pointer, so a read is one acquiring
/// load: no lock, no reference counting on the box. ``reset()`` unpublishes it but keeps the
/// box alive until the cache goes (a reader may be using it that very moment, and resets are
/// rare: tests, sign-outs), so a reset instance is released with its container. Creation holds
/// `creation` for the duration of the factory, so concurrent first resolves of this
/// registration wait for the one factory run, while resolutions of other services never touch
/// this lock.
final class SingletonCache<Service: Sendable>: InstanceCache {
    /// The address of an `Instance<Service>`, or 0 before it is made; retained once when
    /// published and released in `deinit`. An integer, not an `Unmanaged<Instance<Service>>`,
    /// so that the atomic is `Sendable` and its type does not depend on `Service` (generic code
    /// would otherwise look its metadata up at run time on every read).
    private let published = Atomic<UInt>(0)
    /// Held while the factory runs. Its value is unused; it is not `Void` because ThreadSanitizer
    /// places a zero-sized value at the address of the lock's own fields and reports a race.
    private let creation = Lock(false)
    /// Boxes unpublished by ``reset()``, each retained once, released in `deinit`.
    private let retired = Lock<[UInt]>([])

    deinit {
        let boxes = retired.withLock { $0 } + [published.load(ordering: .acquiring)]
        for address in boxes {
            if let raw = UnsafeRawPointer(bitPattern: address) {
                Unmanaged<Instance<Service>>.fromOpaque(raw).release()
            }
        }
    }

    func reset() {
        creation.withLock { _ in
            let address = published.exchange(0, ordering: .acquiringAndReleasing)
            if address != 0 {
                retired.withLock { $0.append(address) }
            }
        }
    }

    func instance(orMake make: () throws -> Service) throws -> Service {
        if let raw = UnsafeRawPointer(bitPattern: published.load(ordering: .acquiring)) {
            return Self.value(at: raw)
        }
        return try creation.withLock { _ in
            // Another thread may have finished creating it while this one waited.
            if let raw = UnsafeRawPointer(bitPattern: published.load(ordering: .acquiring)) {
                return Self.value(at: raw)
            }
            let box = Instance(value: try make())
            let raw = UnsafeRawPointer(Unmanaged.passRetained(box).toOpaque())
            published.store(UInt(bitPattern: raw), ordering: .releasing)
            return box.value
        }
    }

    @inline(__always)
    private static func value(at raw: UnsafeRawPointer) -> Service {
        // Safe: the box was retained when published and is released only in deinit.
        Unmanaged<Instance<Service>>.fromOpaque(raw)._withUnsafeGuaranteedRef { $0.value }
    }
}

/// A made singleton.
final class Instance<Service: Sendable>: Sendable {
    let value: Service

    init(value: Service) {
        self.value = value
    }
}
