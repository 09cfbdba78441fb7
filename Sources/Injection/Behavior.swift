/// Told of each registration as a container adds it (Swinject's `Behavior`): to log, to
/// check naming rules, to add related registrations.
///
/// ```swift
/// struct Logging: Behavior {
///     func container<Type, Service>(
///         _ container: Container, didRegisterType type: Type.Type,
///         toService registration: Registration<Service>, withName name: String?
///     ) {
///         print("registered \(Type.self) as \(name ?? "unnamed")")
///     }
/// }
/// let container = Container(behaviors: [Logging()])
/// ```
public protocol Behavior: Sendable {
    /// Called after `container` added a registration for `type` under `name`, on the thread
    /// that registered it: once for `register`, and again for each type added with
    /// ``Registration/implements(_:name:)`` (then `type` is that type).
    func container<Type, Service>(
        _ container: Container,
        didRegisterType type: Type.Type,
        toService registration: Registration<Service>,
        withName name: String?
    )
}
