import Synchronization

/// Holds a singleton, created once.
///
/// Reads take only `stored`'s lock. Creation holds `creation` for the duration of the factory,
/// so concurrent first resolves of this registration wait for the one factory run, while
/// resolutions of other services never touch this lock.
final class SingletonCache<Service: Sendable>: InstanceCache {
    /// The instance, boxed so that the lock's type does not depend on `Service`: in generic
    /// code a `Mutex<Service?>` would look its metadata up at run time on every read.
    private let stored = Mutex<(any AnyObject & Sendable)?>(nil)
    private let creation = Mutex<Void>(())

    func instance(orMake make: () throws -> Service) throws -> Service {
        if let box = stored.withLock({ $0 }) {
            // Safe: only `Instance<Service>` is ever stored.
            return unsafeDowncast(box, to: Instance<Service>.self).value
        }
        return try creation.withLock { _ in
            // Another thread may have finished creating it while this one waited.
            if let box = stored.withLock({ $0 }) {
                return unsafeDowncast(box, to: Instance<Service>.self).value
            }
            let box = Instance(value: try make())
            stored.withLock { $0 = box }
            return box.value
        }
    }
}

/// A made singleton.
final class Instance<Service: Sendable>: Sendable {
    let value: Service

    init(value: Service) {
        self.value = value
    }
}
