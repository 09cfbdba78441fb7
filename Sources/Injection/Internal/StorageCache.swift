import ConcurrencyHelpers

/// Keeps a custom scope's instance in the user's ``InstanceStorage``, making it at most once
/// at a time.
final class StorageCache<Service: Sendable>: InstanceCache {
    private let storage: any InstanceStorage
    /// Held while the factory runs; its value is unused (see ``SingletonCache``'s `creation`).
    private let creation = Lock(false)

    init(storage: any InstanceStorage) {
        self.storage = storage
    }

    func instance(orMake make: () throws -> Service) throws -> Service {
        if let instance = storage.instance as? Service {
            return instance
        }
        return try creation.withLock { _ in
            if let instance = storage.instance as? Service {
                return instance
            }
            let instance = try make()
            storage.store(instance)
            return instance
        }
    }

    func reset() {
        storage.reset()
    }
}
