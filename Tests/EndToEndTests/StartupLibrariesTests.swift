import PriceHostTesting
import PriceHostTestTraits
import Testing

/// The host and its shipped Swift plugins import FoundationEssentials, never
/// Foundation: a file fetch must not load Foundation, its internationalization
/// layer or ICU. The dynamic loader's own account (LD_DEBUG=libs) says what was loaded.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct StartupLibrariesTests {
    /// Libraries a fetch from the shipped Swift plugins must never load.
    static let forbidden = ["libFoundation.so", "libFoundationInternationalization.so", "libicu", "lib_FoundationICU.so", "libFoundationNetworking.so", "libcurl"]

    @Test func fileFetchLoadsNoFoundationAndNoICU() throws {
        let sandbox = try Sandbox(config: configJSON(plugins: ["libFileProvider.so"]), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--provider", "file", "--asset", "BTC"], environment: ["LD_DEBUG": "libs"])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.hasPrefix("BTC-USD  91234.56  file"))
        let loaded = Self.loadedLibraries(result.standardError)
        // The run really was traced, and the plugin really was loaded.
        #expect(loaded.contains { $0.hasSuffix("/libswiftCore.so") }, "no LD_DEBUG trace: \(result.standardError.prefix(500))")
        #expect(loaded.contains { $0.hasSuffix("/libFoundationEssentials.so") })
        for library in loaded {
            let name = library.split(separator: "/").last.map(String.init) ?? library
            #expect(!Self.forbidden.contains { name.hasPrefix($0) }, "a file fetch loaded \(library)")
        }
    }

    /// Loading every shipped Swift market plugin (`providers` loads them all and asks nothing) brings no Foundation in.
    @Test func marketPluginsLoadNoFoundationAndNoICU() throws {
        let markets = ["libBitstampProvider.so", "libGeminiProvider.so", "libBinanceProvider.so", "libCoinGeckoProvider.so"]
        let sandbox = try Sandbox(config: #"{"plugins": [\#(markets.map { "\"\($0)\"" }.joined(separator: ", "))]}"#)
        defer { sandbox.remove() }
        let result = try sandbox.run(["providers"], environment: ["LD_DEBUG": "libs"])
        #expect(result.status == 0, "\(result)")
        let loaded = Self.loadedLibraries(result.standardError)
        // Plugins are loaded through the descriptor that was checked, so the loader names them /proc/self/fd/N.
        #expect(result.outputLines.count == markets.count, "\(result)")
        #expect(loaded.filter { $0.hasPrefix("/proc/self/fd/") }.count == markets.count, "\(loaded.sorted())")
        for library in loaded {
            let name = library.split(separator: "/").last.map(String.init) ?? library
            #expect(!Self.forbidden.contains { name.hasPrefix($0) }, "loading the market plugins loaded \(library)")
        }
    }

    @Test func versionLoadsNoFoundationAndNoICU() throws {
        let result = try CommandRunner.run(BuiltProducts.pricehost, ["--version"], environment: ["LD_DEBUG": "libs"])
        #expect(result.status == 0, "\(result)")
        let loaded = Self.loadedLibraries(result.standardError)
        #expect(loaded.contains { $0.hasSuffix("/libswiftCore.so") }, "no LD_DEBUG trace")
        for library in loaded {
            let name = library.split(separator: "/").last.map(String.init) ?? library
            #expect(!Self.forbidden.contains { name.hasPrefix($0) }, "--version loaded \(library)")
        }
    }

    /// The paths in the loader's `calling init: PATH` lines: every library whose initializers ran.
    static func loadedLibraries(_ trace: String) -> Set<String> {
        var paths: Set<String> = []
        for line in trace.split(separator: "\n") {
            guard let marker = line.range(of: "calling init: ") else { continue }
            paths.insert(String(line[marker.upperBound...]))
        }
        return paths
    }
}
