import Synchronization

/// The baseline: the smallest sensible container, a `Mutex`-guarded dictionary of factory
/// closures keyed by type and name, the factory called outside the lock. It has no scopes,
/// no graph, no cycle detection and no error messages; the real container must stay close.
final class BareContainer: Sendable {
    private struct Key: Hashable {
        let type: ObjectIdentifier
        let name: String?
    }

    private let factories = Mutex<[Key: @Sendable (BareContainer) -> Any]>([:])

    func register<Service>(_ type: Service.Type, name: String? = nil, factory: @escaping @Sendable (BareContainer) -> Service) {
        factories.withLock { $0[Key(type: ObjectIdentifier(type), name: name)] = factory }
    }

    func resolve<Service>(_ type: Service.Type, name: String? = nil) -> Service {
        let key = Key(type: ObjectIdentifier(type), name: name)
        guard let factory = factories.withLock({ $0[key] }) else {
            fatalError("benchmark registers everything it resolves")
        }
        // Every type-erased container must cast back.
        return factory(self) as! Service
    }
}
