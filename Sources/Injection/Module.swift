/// Registers a group of related services in one place (Swinject's `Assembly`).
///
/// ```swift
/// struct NetworkingModule: Module {
///     func register(into container: Container) {
///         container.register(Networking.self, scope: .singleton) { _ in HTTPNetworking() }
///     }
/// }
/// container.install(NetworkingModule(), PriceFetchersModule())
/// ```
public protocol Module {
    /// Adds this module's registrations to `container`.
    func register(into container: Container)
}
