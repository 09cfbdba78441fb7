import CProviderABI
import Glibc
@testable import PriceHostCore
import PriceHostTesting
import Testing

/// A plugin built for ABI 1.2 in a 1.1 host: the table it is handed is the
/// 1.1 size, without `json_get` and `check_amount`. It must tell, by
/// `struct_size`, and decline with a reason instead of calling past the table.
/// Serialized: a plugin keeps the table it was handed in a global, as the ABI allows,
/// and both tests call the same loaded plugin; two entry calls at once would each
/// read the other's table (the host itself calls an entry once per load).
@Suite(.serialized)
struct OlderHostTests {
    /// Calls the entry of the plugin at `path` with this host's table cut to `size` bytes, as an older host passes it.
    static func callEntry(of path: String, tableSize: Int, minor: UInt16) throws -> (loaded: Bool, messages: [String]) {
        let handle = try #require(dlopen(path, RTLD_NOW | RTLD_LOCAL), "\(String(cString: dlerror()))")
        let symbol = try #require(dlsym(handle, PRICEHOST_PLUGIN_ENTRY_SYMBOL))
        let entry = unsafeBitCast(symbol, to: ph_plugin_entry_v1.self)
        let (context, _) = PluginHostContextTests.context()
        var table = context.makeTable(configDirectory: "/").pointee
        table.struct_size = UInt32(tableSize)
        table.abi_minor = minor
        // Everything past the older table's size is garbage to the plugin: make it so.
        withUnsafeMutableBytes(of: &table) { bytes in
            for offset in tableSize..<bytes.count { bytes[offset] = 0xA5 }
        }
        let (descriptor, _, messages) = context.withEntryCall { withUnsafePointer(to: &table) { entry($0) } }
        return (descriptor != nil, messages.map(\.message))
    }

    static let size1_1 = MemoryLayout<ph_host_services>.offset(of: \ph_host_services.json_get) ?? 0

    static var plugins: [String] {
        get throws {
            [BuiltProducts.plugin("libKrakenProvider.so"),
             try CPluginCompiler.compile(source: BuiltProducts.packageRoot + "/Templates/CProvider/template_provider.c", name: "libTemplateProvider.so")]
        }
    }

    @Test func aPluginOnTheJSONServicesDeclinesA1_1HostByName() throws {
        for path in try Self.plugins {
            let (loaded, messages) = try Self.callEntry(of: path, tableSize: Self.size1_1, minor: 1)
            #expect(!loaded, "\(path)")
            #expect(messages.last?.hasSuffix("needs pricehost with plugin ABI 1.2 (JSON services); this one speaks 1.1") == true, "\(messages)")
        }
    }

    @Test func theSamePluginLoadsWithTheWholeTable() throws {
        for path in try Self.plugins {
            let (loaded, messages) = try Self.callEntry(of: path, tableSize: MemoryLayout<ph_host_services>.size, minor: 2)
            #expect(loaded, "\(path): \(messages)")
        }
    }
}
