/// Holds a singleton, created once.
///
/// Reads take only `stored`'s lock. Creation holds `creation` for the duration of the factory,
/// so concurrent first resolves of this registration wait for the one factory run, while
/// resolutions of other services never touch this lock.
final class SingletonCache<Service: Sendable>: InstanceCache {
    /// The instance, boxed so that the lock's type does not depend on `Service`: in generic
    /// code a `Lock<Service?>` would look its metadata up at run time on every read.
    private let stored = Lock<(any AnyObject & Sendable)?>(nil)
    /// Held while the factory runs. Its value is unused; it is not `Void` because ThreadSanitizer
    /// places a zero-sized value at the address of the lock's own fields and reports a race.
    private let creation = Lock(false)

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
