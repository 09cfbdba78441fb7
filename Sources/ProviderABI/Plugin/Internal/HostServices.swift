import CProviderABI

/// The host's services table, usable from any thread.
///
/// Holds a copy of the table made with the host's own `struct_size`, so a
/// field an older host lacks reads as NULL and nothing past the host's
/// table is read. `@unchecked Sendable` because the ABI makes it so: the
/// host owns what the pointers point to for the life of the process, and its
/// functions may be called from any thread (see pricehost_plugin.h).
struct HostServices: @unchecked Sendable {
    let table: ph_host_services

    /// The size of the 1.0 table, the smallest a 1.x host passes.
    static let sizeV1_0 = MemoryLayout<ph_host_services>.offset(of: \ph_host_services.http_get) ?? MemoryLayout<ph_host_services>.size

    /// Copies the table at `raw`; `nil` when it is smaller than a 1.0 table.
    init?(_ raw: UnsafeRawPointer) {
        let size = CStruct.declaredSize(of: raw)
        guard size >= Self.sizeV1_0 else { return nil }
        table = CStruct.copyPrefix(of: raw, size: size, as: ph_host_services.self)
    }

    /// The settings JSON text the host keeps for `provider`.
    func settingsJSON(for provider: String) -> String {
        guard let function = table.settings_json,
              let text = provider.withCString({ function(table.host_context, $0) }) else { return "{}" }
        return String(cString: text)
    }

    var configDirectory: String {
        table.config_directory.map { String(cString: $0) } ?? "."
    }

    /// The host's `http_get`, when the host is 1.1 or newer.
    var httpGet: ph_http_get_function? {
        table.http_get
    }

    func log(_ level: PluginContext.LogLevel, _ message: String) {
        guard let function = table.log else { return }
        message.withCString { function(table.host_context, level.cValue, $0) }
    }
}
