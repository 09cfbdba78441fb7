import CProviderABI
import Glibc
@testable import PriceHostCore
import ProviderABI
import Testing

/// The descriptor is read from memory a plugin controls: every field is
/// checked before it is trusted. These build descriptors by hand.
struct DescriptorReaderTests {
    static let fetch: ph_fetch_function = { _, _, _, _ in }

    /// Runs `body` with a descriptor of one general fetcher, adjusted by `adjust`.
    func read(_ adjust: (inout ph_plugin_descriptor) -> Void = { _ in },
              fetchers: [ph_fetcher] = [ph_fetcher(struct_size: UInt32(MemoryLayout<ph_fetcher>.size), asset: nil, context: nil, fetch: fetch)],
              name: String = "demo", version: String? = "1.0.0") -> Result<LoadedPlugin, DescriptorReader.Problem> {
        name.withCString { name in
            withOptionalCString(version) { version in
                fetchers.withUnsafeBufferPointer { array in
                    var descriptor = ph_plugin_descriptor(
                        magic: PRICEHOST_PLUGIN_MAGIC, abi_major: UInt16(PRICEHOST_ABI_MAJOR), abi_minor: UInt16(PRICEHOST_ABI_MINOR),
                        descriptor_size: UInt32(MemoryLayout<ph_plugin_descriptor>.size), fetcher_size: UInt32(MemoryLayout<ph_fetcher>.size),
                        name: name, version: version, fetchers: array.baseAddress, fetcher_count: array.count,
                        stream: nil)
                    adjust(&descriptor)
                    return withUnsafePointer(to: &descriptor) { DescriptorReader.read($0, registered: [], path: "/p/libDemo.so") }
                }
            }
        }
    }

    func withOptionalCString<Result>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
        guard let text else { return body(nil) }
        return text.withCString { body($0) }
    }

    func reason(_ result: Result<LoadedPlugin, DescriptorReader.Problem>) -> String? {
        if case .failure(let problem) = result { return problem.reason }
        return nil
    }

    @Test func wellFormedDescriptorLoadsItsFetcher() throws {
        let plugin = try read().get()
        #expect(plugin.name == "demo")
        #expect(plugin.version == "1.0.0")
        #expect(plugin.abiVersion == "\(PRICEHOST_ABI_MAJOR).\(PRICEHOST_ABI_MINOR)")
        #expect(plugin.fetcherNames == ["demo"])
    }

    @Test func dedicatedFetchersAreNamedByAssetUpperCased() throws {
        let eth = "eth".withCString { strdup($0)! }
        defer { free(eth) }
        let fetchers = [
            ph_fetcher(struct_size: UInt32(MemoryLayout<ph_fetcher>.size), asset: UnsafePointer(eth), context: nil, fetch: Self.fetch),
            ph_fetcher(struct_size: UInt32(MemoryLayout<ph_fetcher>.size), asset: nil, context: nil, fetch: Self.fetch),
        ]
        #expect(try read(fetchers: fetchers).get().fetcherNames == ["demo", "demo/ETH"])
    }

    @Test func everyBadFieldIsNamed() {
        #expect(reason(read { $0.fetcher_count = -1 }) == "declares 18446744073709551615 fetchers; the limit is 10000")
        #expect(reason(read { $0.fetcher_count = 10_001 }) == "declares 10001 fetchers; the limit is 10000")
        #expect(reason(read { $0.fetcher_size = 4097 }) == "fetcher_size is 4097 bytes, more than the 4096 any 1.x fetcher can have")
        #expect(reason(read { $0.descriptor_size = 1 << 20 }) == "descriptor_size is 1048576 bytes, more than the 4096 any 1.x descriptor can have")
        #expect(reason(read { $0.fetchers = nil }) == "fetcher_count is 1 but fetchers is NULL")
        #expect(reason(read { $0.name = nil }) == "the descriptor has no name")
        #expect(reason(read(name: "Bad Name")) == "provider name \"Bad Name\" is invalid: provider names are 1 to 32 lower-case letters, digits or '-'")
        #expect(reason(read(version: nil)) == "version must be 1 to 64 printable characters")
        #expect(reason(read(version: "1.0\n")) == "version must be 1 to 64 printable characters")
        #expect(reason(read(fetchers: [])) == "the plugin offers no fetchers")
    }

    @Test func fetcherWithoutFunctionOrWithABadOrRepeatedAssetIsNamed() {
        let size = UInt32(MemoryLayout<ph_fetcher>.size)
        #expect(reason(read(fetchers: [ph_fetcher(struct_size: size, asset: nil, context: nil, fetch: nil)])) == "fetchers[0] has no fetch function")
        let general = ph_fetcher(struct_size: size, asset: nil, context: nil, fetch: Self.fetch)
        #expect(reason(read(fetchers: [general, general])) == "two fetchers for any asset (asset NULL); a provider has one per asset and one general fetcher")
        "../x".withCString { bad in
            let fetcher = ph_fetcher(struct_size: size, asset: bad, context: nil, fetch: Self.fetch)
            #expect(reason(read(fetchers: [fetcher])) == "fetchers[0] has asset \"../x\", which is not 2 to 10 letters or digits")
        }
    }

    @Test func aDescriptorOfAnEarlierMinorLoadsAndNothingPastItsSizeIsRead() throws {
        let size1_2 = try #require(MemoryLayout<ph_plugin_descriptor>.offset(of: \ph_plugin_descriptor.stream))
        // What lies past a 1.2 descriptor is not the plugin's: were it read as a stream, it would crash.
        let plugin = try read {
            $0.abi_minor = 2
            $0.descriptor_size = UInt32(size1_2)
            $0.stream = UnsafePointer(bitPattern: 0x10)
        }.get()
        #expect(plugin.abiVersion == "1.2")
        #expect(plugin.fetcherNames == ["demo"])
        #expect(plugin.stream == nil)
        #expect(reason(read { $0.descriptor_size = UInt32(size1_2 - 8) })
                == "descriptor_size is \(size1_2 - 8) bytes, smaller than the \(size1_2) of ABI 1.0: the plugin was built against a broken header")
    }

    @Test func problemsFoundAfterTheNameCarryTheProvider() {
        guard case .failure(let problem) = read(version: nil) else {
            Issue.record("a NULL version was accepted")
            return
        }
        #expect(problem.provider == "demo")
    }
}
