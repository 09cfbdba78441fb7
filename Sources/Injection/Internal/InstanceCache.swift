/// Something a scope or a container can empty.
protocol ResettableCache: AnyObject, Sendable {
    /// Forgets the kept instance; the next resolve makes a new one.
    func reset()
}

/// Keeps the instance of a shared-scope (singleton, weak or custom) registration.
protocol InstanceCache<Service>: ResettableCache {
    associatedtype Service

    /// Returns the kept instance, or runs `make` to create one and keeps it. `make` runs at
    /// most once at a time per cache, and callers that arrive meanwhile wait for its result.
    func instance(orMake make: () throws -> Service) throws -> Service
}
