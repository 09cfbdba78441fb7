/// A property resolved from ``Container/root`` when its owner is initialized (Resolver's
/// `@Injected`).
///
/// ```swift
/// final class QuoteViewModel {
///     @Injected var fetcher: PriceFetcher
///     @Injected(name: "coinbase/ETH") var ethereum: PriceFetcher
/// }
/// ```
///
/// A property wrapper cannot throw: when the resolve fails, the program stops with the full
/// ``ResolutionError`` text (what is missing and what is registered, or the cycle's path).
/// Use ``OptionalInjected`` for a service that may be absent, or resolve with `try` yourself.
@propertyWrapper
public struct Injected<Service> {
    /// The resolved service.
    public var wrappedValue: Service

    /// Resolves `Service` under `name` from `container`, or from ``Container/root``.
    public init(name: String? = nil, container: Container? = nil) {
        wrappedValue = resolvedOrStop { try (container ?? Container.root).resolve(Service.self, name: name) }
    }

    /// The wrapper itself (`$property`).
    public var projectedValue: Injected<Service> {
        get { self }
        set { self = newValue }
    }
}

extension Injected: Sendable where Service: Sendable {}
