import CProviderABI

/// The host's services table, usable from any thread.
///
/// `@unchecked Sendable` because the ABI makes it so: the host owns the table
/// for the life of the process and its functions may be called from any
/// thread (see pricehost_plugin.h). Nothing here is mutable.
struct HostServices: @unchecked Sendable {
    let table: UnsafePointer<ph_host_services>

    /// The settings JSON text the host keeps for `provider`.
    func settingsJSON(for provider: String) -> String {
        guard let function = table.pointee.settings_json,
              let text = provider.withCString({ function(table.pointee.host_context, $0) }) else { return "{}" }
        return String(cString: text)
    }

    var configDirectory: String {
        table.pointee.config_directory.map { String(cString: $0) } ?? "."
    }

    /// The size of the 1.0 table: a host of this size has no HTTP service.
    static let sizeV1_0 = MemoryLayout<ph_host_services>.offset(of: \ph_host_services.http_get) ?? MemoryLayout<ph_host_services>.size

    /// The host's `http_get`, when the host is 1.1 or newer.
    var httpGet: ph_http_get_function? {
        guard Int(table.pointee.struct_size) >= Self.sizeV1_0 + MemoryLayout<UnsafeRawPointer>.size else { return nil }
        return table.pointee.http_get
    }

    func log(_ level: PluginContext.LogLevel, _ message: String) {
        guard let function = table.pointee.log else { return }
        message.withCString { function(table.pointee.host_context, level.cValue, $0) }
    }
}
