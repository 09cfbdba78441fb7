/// A property resolved from ``Container/root`` on its first read and held weakly (Resolver's
/// `@WeakLazyInjected`): `nil` once nothing else holds it.
///
/// Only a class instance can be held weakly; a value is resolved anew on every read. A failed
/// resolve stops the program with the full ``ResolutionError`` text, as ``Injected`` does.
@propertyWrapper
public struct WeakLazyInjected<Service> {
    private weak var object: AnyObject?
    private var isResolved = false
    /// The name resolved.
    public let name: String?
    /// The container resolved from; ``Container/root`` at the first read when `nil`.
    public let container: Container?

    /// Will resolve `Service` under `name` from `container`, or from ``Container/root``.
    public init(name: String? = nil, container: Container? = nil) {
        self.name = name
        self.container = container
    }

    /// The service, resolved on the first read; `nil` after the last strong reference elsewhere
    /// went.
    public var wrappedValue: Service? {
        mutating get {
            if isResolved {
                return object as? Service
            }
            let (name, container) = (name, container)
            let resolved = resolvedOrStop { try (container ?? Container.root).resolve(Service.self, name: name) }
            if type(of: resolved as Any) is AnyObject.Type {
                object = resolved as AnyObject
                isResolved = true
            }
            return resolved
        }
        set {
            object = newValue.map { $0 as AnyObject }
            isResolved = true
        }
    }

    /// The wrapper itself (`$property`).
    public var projectedValue: WeakLazyInjected<Service> {
        get { self }
        mutating set { self = newValue }
    }
}
