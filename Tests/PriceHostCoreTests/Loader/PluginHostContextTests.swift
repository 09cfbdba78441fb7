import ConcurrencyHelpers
import CProviderABI
@testable import PriceHostCore
import ProviderABI
import Testing

/// The services table a plugin's entry is called with, used through its C
/// function pointers as a plugin would use them.
struct PluginHostContextTests {
    /// A context whose log lines are collected.
    static func context(settings: [String: String] = [:], override: String? = nil) -> (PluginHostContext, Lock<[String]>) {
        let lines = Lock<[String]>([])
        let diagnostics = Diagnostics(threshold: .debug, sink: { line in lines.withLock { $0.append(line) } })
        let context = PluginHostContext(pluginPath: "/opt/plugins/libDemo.so", settingsText: settings, settingsOverride: override,
                                        diagnostics: diagnostics, httpClients: { _ in UnavailableHTTPClient(reason: "none here") })
        return (context, lines)
    }

    @Test func theTableStatesItsSizeVersionAndEveryService() throws {
        let (context, _) = Self.context()
        let table = context.makeTable(configDirectory: "/etc/pricehost").pointee
        #expect(Int(table.struct_size) == MemoryLayout<ph_host_services>.size)
        #expect(table.abi_major == UInt16(PRICEHOST_ABI_MAJOR))
        #expect(table.abi_minor == UInt16(PRICEHOST_ABI_MINOR))
        #expect(String(cString: try #require(table.config_directory)) == "/etc/pricehost")
        #expect(table.settings_json != nil && table.log != nil && table.register_fetcher != nil && table.http_get != nil)
    }

    @Test func settingsAreTheProvidersOwnOrAnEmptyObject() throws {
        let (context, _) = Self.context(settings: ["demo": #"{"baseURL":"http://127.0.0.1:1"}"#])
        let table = context.makeTable(configDirectory: "/").pointee
        let settings = try #require(table.settings_json)
        #expect(String(cString: try #require(settings(table.host_context, "demo"))) == #"{"baseURL":"http://127.0.0.1:1"}"#)
        #expect(String(cString: try #require(settings(table.host_context, "other"))) == "{}")
        // The same copy each time: it lives for the process.
        #expect(settings(table.host_context, "demo") == settings(table.host_context, "demo"))
    }

    @Test func theConformanceOverrideReplacesEveryProvidersSettings() throws {
        let (context, _) = Self.context(settings: ["demo": "{}"], override: #"{"x":1}"#)
        let table = context.makeTable(configDirectory: "/").pointee
        #expect(String(cString: try #require(table.settings_json?(table.host_context, "demo"))) == #"{"x":1}"#)
    }

    @Test func logLinesNameThePluginFileAndKeepTheirLevel() throws {
        let (context, lines) = Self.context()
        let table = context.makeTable(configDirectory: "/").pointee
        let log = try #require(table.log)
        log(table.host_context, PH_LOG_WARNING, "rate limited")
        log(table.host_context, PH_LOG_ERROR, "gave up")
        #expect(lines.withLock { $0 } == ["pricehost: warning: libDemo.so: rate limited", "pricehost: error: libDemo.so: gave up"])
    }

    @Test func linesLoggedDuringTheEntryCallAreHeldBackForTheLoader() throws {
        let (context, lines) = Self.context()
        let table = context.makeTable(configDirectory: "/").pointee
        let (_, fetchers, messages) = context.withEntryCall { table.log?(table.host_context, PH_LOG_WARNING, "starting") }
        #expect(fetchers.isEmpty)
        #expect(messages.map(\.message) == ["starting"])
        #expect(lines.withLock { $0 }.isEmpty)
    }

    @Test func registeringAfterTheEntryReturnedIsRefusedAndLogged() throws {
        let (context, lines) = Self.context()
        let table = context.makeTable(configDirectory: "/").pointee
        var fetcher = ph_fetcher()
        let status = withUnsafePointer(to: &fetcher) { table.register_fetcher?(table.host_context, $0) }
        #expect(status == 1)
        #expect(lines.withLock { $0 } == ["pricehost: error: libDemo.so: register_fetcher called after the entry function returned; ignored"])
    }
}
