/// Registers a group of related services in one place (Swinject's `Assembly`).
///
/// ```swift
/// struct StorageModule: Module {
///     func register(into container: Container) {
///         container.register(Storage.self, scope: .singleton) { _ in DiskStorage(directory: "/var/lib/app") }
///     }
/// }
/// container.install(StorageModule(), ReportingModule())
/// ```
public protocol Module {
    /// Adds this module's registrations to `container`.
    func register(into container: Container)
}
