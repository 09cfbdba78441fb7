import Synchronization

/// The baseline: the smallest sensible container, a `Mutex`-guarded dictionary of factory
/// closures keyed by type and name, the factory called outside the lock. It has no scopes,
/// no graph, no cycle detection and no error messages; the real container must stay close.
final class BareContainer: Sendable {
    private struct Key: Hashable {
        let type: ObjectIdentifier
        let name: String?
        var argument: ObjectIdentifier? = nil
    }

    private let factories = Mutex<[Key: @Sendable (BareContainer) -> Any]>([:])
    private let argumentFactories = Mutex<[Key: @Sendable (BareContainer, Any) -> Any]>([:])

    /// The bare way to take an argument: the key holds its type, the factory casts it back.
    func register<Service, Argument>(
        _ type: Service.Type, argument: Argument.Type, factory: @escaping @Sendable (BareContainer, Argument) -> Service
    ) {
        let key = Key(type: ObjectIdentifier(type), name: nil, argument: ObjectIdentifier(argument))
        argumentFactories.withLock { $0[key] = { container, argument in factory(container, argument as! Argument) } }
    }

    func resolve<Service, Argument>(_ type: Service.Type, argument: Argument) -> Service {
        let key = Key(type: ObjectIdentifier(type), name: nil, argument: ObjectIdentifier(Argument.self))
        guard let factory = argumentFactories.withLock({ $0[key] }) else {
            fatalError("benchmark registers everything it resolves")
        }
        return factory(self, argument) as! Service
    }

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

    /// The bare way to defer a resolve: a box holding the factory and its result, as a `Lazy`
    /// must be; the like-for-like baseline of `Lazy<T>`.
    func resolveLazy<Service>(_ type: Service.Type, name: String? = nil) -> BareLazy<Service> {
        let key = Key(type: ObjectIdentifier(type), name: name)
        guard let factory = factories.withLock({ $0[key] }) else {
            fatalError("benchmark registers everything it resolves")
        }
        return BareLazy { factory(self) as! Service }
    }
}

/// A value made on first use, under a lock: what a `Lazy` is at the least.
final class BareLazy<Service>: @unchecked Sendable {
    private let make: () -> Service
    private let made = Mutex<Bool>(false)
    private var value: Service?

    init(_ make: @escaping () -> Service) {
        self.make = make
    }

    var instance: Service {
        made.withLock { _ in
            if let value {
                return value
            }
            let instance = make()
            value = instance
            return instance
        }
    }
}
