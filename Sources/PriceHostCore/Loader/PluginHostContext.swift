import ConcurrencyHelpers
import Injection
import CProviderABI
import Glibc
import ProviderABI
import Synchronization

/// What stands behind one plugin's `host_context`: its name for log lines,
/// the settings it may ask for, and the fetchers it registers during entry.
///
/// Each plugin gets its own table and context, allocated once and never
/// freed, as the ABI promises they live for the whole process.
final class PluginHostContext: Sendable {
    package let pluginPath: String
    package let diagnostics: Diagnostics
    private let settingsText: [String: String]
    private let settingsOverride: String?
    private let httpClients: @Sendable (String?) -> any HTTPClient
    /// `http_get` requests this plugin has in flight with the host.
    private let httpRequests = Atomic<Int>(0)

    /// True while the plugin waits on the host's HTTP, whose own deadlines bound it.
    var hasHTTPInFlight: Bool { httpRequests.load(ordering: .relaxed) > 0 }

    func httpStarted() { httpRequests.add(1, ordering: .relaxed) }
    func httpFinished() { httpRequests.subtract(1, ordering: .relaxed) }

    /// The provider name, once the descriptor has been read; `nil` during the entry call.
    private let provider = Lock<String?>(nil)
    /// Addresses of the C copies handed out by `settings_json`, kept for the
    /// life of the process. Held as integers: a pointer is not `Sendable`.
    private let settingsCopies = Lock<[String: UInt]>([:])
    /// What happens during the entry call: fetchers registered through
    /// `register_fetcher` (addresses: a pointer is not `Sendable`) and the
    /// plugin's log lines, held back until the loader knows whether the
    /// plugin loaded.
    private let entryCall = Lock<EntryCall?>(nil)

    struct EntryCall {
        package var fetchers: [UInt] = []
        var messages: [(level: Diagnostics.Level, message: String)] = []
    }

    init(pluginPath: String, settingsText: [String: String], settingsOverride: String? = nil, diagnostics: Diagnostics,
         httpClients: @escaping @Sendable (String?) -> any HTTPClient) {
        self.pluginPath = pluginPath
        self.settingsText = settingsText
        self.settingsOverride = settingsOverride
        self.diagnostics = diagnostics
        self.httpClients = httpClients
    }

    /// Records which provider this plugin turned out to be, so its HTTP gets that provider's policy.
    func setProvider(_ name: String) {
        provider.withLock { $0 = name }
    }

    /// The HTTP client for this plugin's provider (the default policy during the entry call).
    package func httpClient() -> any HTTPClient {
        httpClients(provider.withLock { $0 })
    }

    /// Builds the services table for this plugin.
    package func makeTable(configDirectory: String) -> UnsafePointer<ph_host_services> {
        let table = UnsafeMutablePointer<ph_host_services>.allocate(capacity: 1)
        table.initialize(to: ph_host_services(
            struct_size: UInt32(MemoryLayout<ph_host_services>.size),
            abi_major: UInt16(PRICEHOST_ABI_MAJOR),
            abi_minor: UInt16(PRICEHOST_ABI_MINOR),
            host_context: Unmanaged.passRetained(self).toOpaque(),
            settings_json: hostSettingsJSON,
            config_directory: UnsafePointer(strdup(configDirectory)),
            log: hostLog,
            register_fetcher: hostRegisterFetcher,
            http_get: hostHTTPGet,
            json_get: hostJSONGet,
            check_amount: hostCheckAmount))
        return UnsafePointer(table)
    }

    func settingsJSON(for provider: String) -> UnsafePointer<CChar> {
        let address = settingsCopies.withLock { copies in
            if let address = copies[provider] { return address }
            let address = UInt(bitPattern: strdup(settingsOverride ?? settingsText[provider] ?? "{}"))
            copies[provider] = address
            return address
        }
        // strdup failing means the process is out of memory: nothing a plugin sent can cause it.
        return UnsafePointer(bitPattern: address)!
    }

    package func log(_ level: ph_log_level, _ message: String) {
        let mapped: Diagnostics.Level = switch level {
        case PH_LOG_DEBUG: .debug
        case PH_LOG_INFO: .info
        case PH_LOG_WARNING: .warning
        default: .error
        }
        let held = entryCall.withLock { call -> Bool in
            guard call != nil else { return false }
            call?.messages.append((mapped, message))
            return true
        }
        if !held { diagnostics.log(mapped, "\(FilePath.fileName(of: pluginPath)): \(message)") }
    }

    /// Runs `body` (the entry call) with registration open; returns its result,
    /// the fetchers registered, and the log lines held back meanwhile.
    package func withEntryCall<Result>(_ body: () -> Result) -> (Result, [UnsafePointer<ph_fetcher>], [(level: Diagnostics.Level, message: String)]) {
        entryCall.withLock { $0 = EntryCall() }
        let result = body()
        let call = entryCall.withLock { call in
            defer { call = nil }
            return call ?? EntryCall()
        }
        return (result, call.fetchers.compactMap { UnsafePointer(bitPattern: $0) }, call.messages)
    }

    package func register(_ fetcher: UnsafePointer<ph_fetcher>) -> Bool {
        entryCall.withLock { call in
            guard call != nil else { return false }
            call?.fetchers.append(UInt(bitPattern: fetcher))
            return true
        }
    }

    package static func from(_ pointer: UnsafeMutableRawPointer?) -> PluginHostContext? {
        pointer.map { Unmanaged<PluginHostContext>.fromOpaque($0).takeUnretainedValue() }
    }
}

private let hostSettingsJSON: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> UnsafePointer<CChar>? = { context, provider in
    guard let host = PluginHostContext.from(context) else { return nil }
    return host.settingsJSON(for: provider.map { String(cString: $0) } ?? "")
}

private let hostLog: @convention(c) (UnsafeMutableRawPointer?, ph_log_level, UnsafePointer<CChar>?) -> Void = { context, level, message in
    guard let host = PluginHostContext.from(context), let message else { return }
    host.log(level, String(cString: message))
}

private let hostRegisterFetcher: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<ph_fetcher>?) -> Int32 = { context, fetcher in
    guard let host = PluginHostContext.from(context) else { return 1 }
    guard let fetcher else {
        host.log(PH_LOG_ERROR, "register_fetcher called with NULL; ignored")
        return 1
    }
    guard host.register(fetcher) else {
        host.log(PH_LOG_ERROR, "register_fetcher called after the entry function returned; ignored")
        return 1
    }
    return 0
}
