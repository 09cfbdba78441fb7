/// A property resolved from ``Container/root`` on its first read (Resolver's `@LazyInjected`).
///
/// Reading it mutates the wrapper, so the owner must be a class or a `var`. A failed resolve
/// stops the program with the full ``ResolutionError`` text, as ``Injected`` does.
@propertyWrapper
public struct LazyInjected<Service> {
    private var service: Service?
    /// The name resolved.
    public let name: String?
    /// The container resolved from; ``Container/root`` at the first read when `nil`.
    public let container: Container?

    /// Will resolve `Service` under `name` from `container`, or from ``Container/root``.
    public init(name: String? = nil, container: Container? = nil) {
        self.name = name
        self.container = container
    }

    /// True until the first read (or after ``release()``).
    public var isEmpty: Bool { service == nil }

    /// The service, resolved on the first read.
    public var wrappedValue: Service {
        mutating get {
            if let service {
                return service
            }
            let (name, container) = (name, container)
            let resolved = resolvedOrStop { try (container ?? Container.root).resolve(Service.self, name: name) }
            service = resolved
            return resolved
        }
        set {
            service = newValue
        }
    }

    /// The wrapper itself (`$property`), for ``isEmpty`` and ``release()``.
    public var projectedValue: LazyInjected<Service> {
        get { self }
        mutating set { self = newValue }
    }

    /// Forgets the service; the next read resolves again.
    public mutating func release() {
        service = nil
    }
}

extension LazyInjected: Sendable where Service: Sendable {}
