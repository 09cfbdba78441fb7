/// A property resolved from ``Container/root`` when its owner is initialized, `nil` when the
/// service is not registered (Resolver's `@OptionalInjected`).
///
/// Only a missing registration gives `nil`: any other failure (a missing dependency, a cycle,
/// a factory's error) stops the program with the full ``ResolutionError`` text.
@propertyWrapper
public struct OptionalInjected<Service> {
    /// The resolved service, or `nil`.
    public var wrappedValue: Service?

    /// Resolves `Service` under `name` from `container`, or from ``Container/root``.
    public init(name: String? = nil, container: Container? = nil) {
        wrappedValue = resolvedOrStop { try (container ?? Container.root).resolveIfRegistered(Service.self, name: name) }
    }

    /// The wrapper itself (`$property`).
    public var projectedValue: OptionalInjected<Service> {
        get { self }
        set { self = newValue }
    }
}

extension OptionalInjected: Sendable where Service: Sendable {}
