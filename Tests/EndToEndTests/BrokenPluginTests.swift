import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// One broken plugin beside a good one: the broken one gets one line naming
/// the file and the reason, and the good one still serves. The broken one is
/// listed first: a fetch stops loading once its providers are loaded.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct BrokenPluginTests {
    enum Broken: String, CaseIterable, CustomTestStringConvertible {
        case missingFile, missingPath, textFileNamedSo, elfForAnotherArchitecture, executableNotLibrary
        case noEntrySymbol, wrongMagic, newerMajorVersion, descriptorTooSmall, fetcherTooSmall
        case negativeFetcherCount, hugeFetcherStride, duplicateProviderName, entryReturnsNothing

        var testDescription: String { rawValue }

        /// Where it goes in `plugins`: first, so that a fetch reaches it; a duplicate
        /// must come after the plugin it duplicates, where a fetch never gets to it.
        var index: Int { self == .duplicateProviderName ? 1 : 0 }

        /// Puts the broken plugin in place; returns the `plugins` entry and the exact stderr lines.
        func make(in directory: TemporaryDirectory) throws -> (reference: String, stderr: [String]) {
            switch self {
            case .missingFile:
                let looked = [BuiltProducts.directory, URL(fileURLWithPath: BuiltProducts.directory + "/../lib/pricehost/plugins").standardized.path]
                return ("libMissing.so", ["pricehost: warning: plugin libMissing.so: not found (from plugins[\(index)]); looked in \(looked.joined(separator: ", "))"])
            case .missingPath:
                return ("./plugins/libGone.so", ["pricehost: warning: plugin \(directory.file("plugins/libGone.so")): file not found (from plugins[\(index)])"])
            case .textFileNamedSo:
                let path = try directory.write("this is not a library\n", to: "libText.so")
                return (path, ["pricehost: warning: plugin \(path): not an ELF shared library (the file does not start with the ELF magic number)"])
            case .elfForAnotherArchitecture:
                let path = try directory.write(Self.elfHeader(machine: 183, type: 3), to: "libArm.so")
                return (path, ["pricehost: warning: plugin \(path): ELF for aarch64, but this pricehost runs on x86_64; build the plugin for x86_64"])
            case .executableNotLibrary:
                let path = try directory.write(Self.elfHeader(machine: 62, type: 2), to: "libExe.so")
                return (path, ["pricehost: warning: plugin \(path): an executable, not a shared library; link it with -shared"])
            case .noEntrySymbol:
                let path = try Sandbox.testPlugin(["VARIANT_NO_ENTRY"], name: "libNoEntry.so")
                return (path, ["pricehost: warning: plugin \(path): no pricehost_plugin_entry_v1 symbol: not a pricehost plugin, or the entry is not exported (in C, give it default visibility)"])
            case .wrongMagic:
                let path = try Sandbox.testPlugin(["VARIANT_WRONG_MAGIC"], name: "libMagic.so")
                return (path, ["pricehost: warning: plugin \(path): wrong magic number 0x12345678 (expected 0x50485031): the entry did not return a pricehost descriptor"])
            case .newerMajorVersion:
                let path = try Sandbox.testPlugin(["VARIANT_NEW_MAJOR"], name: "libMajor.so")
                return (path, ["pricehost: warning: plugin \(path): built for plugin ABI 2.0; this pricehost speaks ABI 1.4; rebuild the plugin against this pricehost's header"])
            case .descriptorTooSmall:
                let path = try Sandbox.testPlugin(["VARIANT_SMALL_DESCRIPTOR"], name: "libSmall.so")
                return (path, ["pricehost: warning: plugin \(path): descriptor_size is 8 bytes, smaller than the 48 of ABI 1.0: the plugin was built against a broken header"])
            case .fetcherTooSmall:
                let path = try Sandbox.testPlugin(["VARIANT_SMALL_FETCHER"], name: "libSmallFetcher.so")
                return (path, ["pricehost: warning: plugin \(path): fetcher_size is 8 bytes, smaller than the 32 of ABI 1.0"])
            case .negativeFetcherCount:
                let path = try Sandbox.testPlugin(["VARIANT_COUNT_NEGATIVE"], name: "libNegative.so")
                return (path, ["pricehost: warning: plugin \(path): declares 18446744073709551615 fetchers; the limit is 10000"])
            case .hugeFetcherStride:
                let path = try Sandbox.testPlugin(["VARIANT_HUGE_STRIDE"], name: "libStride.so")
                return (path, ["pricehost: warning: plugin \(path): fetcher_size is 4294967280 bytes, more than the 4096 any 1.x fetcher can have"])
            case .duplicateProviderName:
                let path = try Sandbox.testPlugin(["PROVIDER=\"file\""], name: "libFileAgain.so")
                return (path, ["pricehost: warning: plugin \(path): provider 'file' is already provided by \(BuiltProducts.plugin("libFileProvider.so")); remove one of the two"])
            case .entryReturnsNothing:
                let path = try Sandbox.testPlugin(["VARIANT_RETURN_NULL"], name: "libNull.so")
                return (path, ["pricehost: warning: plugin \(path): declined to load (its entry returned NULL): cannot start: no API key in settings"])
            }
        }

        /// A 64-byte ELF64 little-endian header with the given machine and type.
        static func elfHeader(machine: UInt16, type: UInt16) -> Data {
            var bytes = [UInt8](repeating: 0, count: 64)
            bytes[0...3] = [0x7F, 0x45, 0x4C, 0x46]
            bytes[4] = 2  // 64-bit
            bytes[5] = 1  // little-endian
            bytes[6] = 1  // version
            bytes[16] = UInt8(type & 0xFF)
            bytes[18] = UInt8(machine & 0xFF)
            bytes[19] = UInt8(machine >> 8)
            return Data(bytes)
        }
    }

    @Test(arguments: Broken.allCases)
    func brokenPluginIsNamedAndTheGoodOneStillServes(_ broken: Broken) throws {
        let sandbox = try Sandbox(config: "{}", files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let (reference, stderr) = try broken.make(in: sandbox.directory)
        var plugins = ["libFileProvider.so"]
        plugins.insert(reference, at: broken.index)
        try sandbox.directory.write(configJSON(plugins: plugins), to: "plugins.json")

        let result = try sandbox.run(["fetch", "--asset", "BTC"])
        let fetchSees = broken == .duplicateProviderName ? [] : stderr
        #expect(result == CommandResult(status: 0, standardOutput: "BTC-USD  91234.56  file  2026-11-20T12:00:00Z\n",
                                        standardError: fetchSees.map { $0 + "\n" }.joined()))

        let check = try sandbox.run(["check"])
        #expect(check.status == 3, "\(check)")
        #expect(check.outputLines.last == "check failed: 1 problem(s), 0 warning(s)")
    }

    @Test func providersListsTheFailureWithItsReason() throws {
        let sandbox = try Sandbox(config: "{}", files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let text = try sandbox.directory.write("not a library", to: "libText.so")
        try sandbox.directory.write(configJSON(plugins: ["libFileProvider.so", text]), to: "plugins.json")
        let result = try sandbox.run(["providers", "--format", "json"])
        #expect(result == CommandResult(status: 0, standardOutput: """
            {"plugins":[{"name":"file","version":"1.0.0","path":"\(BuiltProducts.plugin("libFileProvider.so"))","abi":"1.4",\
            "sha256":"\(try sha256sum(BuiltProducts.plugin("libFileProvider.so")))","fetchers":["file"],"stream":null}],\
            "failures":[{"path":"\(text)","error":"not an ELF shared library (the file does not start with the ELF magic number)"}]}

            """, standardError: ""))
    }

    @Test func everySoInAPluginDirectoryIsLoaded() throws {
        let sandbox = try Sandbox(config: "{}", files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        try FileManager.default.createDirectory(atPath: sandbox.directory.file("plugins.d"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Sandbox.testPlugin(), toPath: sandbox.directory.file("plugins.d/libCTest.so"))
        try sandbox.directory.write("ignored: not a .so", to: "plugins.d/README")
        try sandbox.directory.write(configJSON(plugins: ["libFileProvider.so"], extra: ",\n  \"pluginDirectories\": [\"plugins.d\", \"missing.d\"]"),
                                    to: "plugins.json")
        let result = try sandbox.run(["fetch", "--provider", "ctest", "--asset", "BTC", "--format", "csv"])
        // The fetch found ctest in plugins.d and never got to missing.d; providers reads them all.
        #expect(result == CommandResult(status: 0, standardOutput: """
            asset,currency,amount,provider,timestamp
            BTC,USD,100.25,ctest,2025-11-20T12:00:00Z

            """, standardError: ""))
        let providers = try sandbox.run(["providers"])
        #expect(providers.status == 0, "\(providers)")
        #expect(providers.standardOutput.contains("fetchers: ctest"), "\(providers)")
        #expect(providers.outputLines.contains("failed: plugin \(sandbox.directory.file("missing.d")): plugin directory cannot be read (does it exist?)"), "\(providers)")
    }

    /// A fetch loads plugins in order until its providers are loaded: what comes
    /// after is neither loaded nor looked up. `providers` and `check` see it all.
    @Test func fetchLoadsNoPluginAfterItsProvidersAreLoaded() throws {
        let sandbox = try Sandbox(config: "{}", files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let text = try sandbox.directory.write("not a library", to: "libText.so")
        try sandbox.directory.write(configJSON(plugins: ["libFileProvider.so", text, "libMissing.so"], extra: ",\n  \"pluginDirectories\": [\"missing.d\"]"),
                                    to: "plugins.json")
        let fetch = try sandbox.run(["fetch", "--asset", "BTC"])
        #expect(fetch == CommandResult(status: 0, standardOutput: "BTC-USD  91234.56  file  2026-11-20T12:00:00Z\n", standardError: ""))

        // A provider that is not loaded yet: the fetch walks on, and reports what it passes.
        let ctest = try sandbox.run(["fetch", "--provider", "ctest", "--asset", "BTC"])
        #expect(ctest.status == 2, "\(ctest)")
        #expect(ctest.standardError.split(separator: "\n").count == 4, "\(ctest)")
        #expect(ctest.standardError.contains("plugin \(text): not an ELF shared library"), "\(ctest)")
        #expect(ctest.standardError.contains("plugin libMissing.so: not found (from plugins[2])"), "\(ctest)")
        #expect(ctest.standardError.contains("missing.d"), "\(ctest)")
        #expect(ctest.standardError.hasSuffix("pricehost: error: unknown provider 'ctest' (from --provider); loaded providers: file\n"), "\(ctest)")

        let providers = try sandbox.run(["providers"])
        #expect(providers.status == 0, "\(providers)")
        #expect(providers.outputLines.filter { $0.hasPrefix("failed: ") }.count == 3, "\(providers)")
    }

    @Test func providerOfAPluginThatFailedIsAPluginErrorNamingIt() throws {
        let plugin = try Sandbox.testPlugin(["VARIANT_COUNT_NEGATIVE"], name: "libNegative.so")
        let sandbox = try Sandbox(config: configJSON(plugins: ["libFileProvider.so", plugin]), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--provider", "ctest", "--asset", "BTC"])
        #expect(result == CommandResult(status: 3, standardOutput: "", standardError: """
            pricehost: warning: plugin \(plugin): declares 18446744073709551615 fetchers; the limit is 10000
            pricehost: error: \(plugin): provider 'ctest' is this plugin's, which failed to load: declares 18446744073709551615 fetchers; the limit is 10000

            """))
    }

    @Test func hardLinkToALoadedLibraryIsTheSameLibraryLoadedOnce() throws {
        let sandbox = try Sandbox(config: "{}", files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let directory = sandbox.directory.file("plugins.d")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Sandbox.testPlugin(), toPath: directory + "/libA.so")
        try FileManager.default.linkItem(atPath: directory + "/libA.so", toPath: directory + "/libB.so")
        try sandbox.directory.write(#"{"pluginDirectories": ["plugins.d"]}"#, to: "plugins.json")
        let result = try sandbox.run(["providers"])
        #expect(result == CommandResult(status: 0, standardOutput: "ctest  0.9.1  \(directory)/libA.so  fetchers: ctest\n", standardError: ""))
    }

    @Test func outOfRangeTimestampFromAPluginIsRefusedNotACrash() throws {
        let plugin = try Sandbox.testPlugin(["VARIANT_BAD_TIMESTAMP"], name: "libTime.so")
        let sandbox = try Sandbox(config: configJSON(plugins: [plugin]), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--provider", "ctest", "--asset", "BTC", "--format", "json"])
        #expect(result == CommandResult(status: 1, standardOutput: "", standardError: """
            pricehost: error: ctest: plugin returned timestamp_ms 9223372036854775807, outside the years 0001 to 9999

            """))
    }

    @Test func controlCharactersFromAPluginCannotForgeALine() throws {
        let sandbox = try Sandbox(config: configJSON(plugins: [try Sandbox.testPlugin()]), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--provider", "ctest", "--asset", "EVIL"])
        #expect(result == CommandResult(status: 1, standardOutput: "", standardError: """
            pricehost: error: ctest: first line\\npricehost: error: forged\\u{1B}[31m

            """))
    }
}
