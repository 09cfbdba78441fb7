/// Keeps the instance of a shared-scope (singleton or weak) registration.
protocol InstanceCache<Service>: AnyObject, Sendable {
    associatedtype Service

    /// Returns the kept instance, or runs `make` to create one and keeps it. `make` runs at
    /// most once at a time per cache, and callers that arrive meanwhile wait for its result.
    func instance(orMake make: () throws -> Service) throws -> Service
}
