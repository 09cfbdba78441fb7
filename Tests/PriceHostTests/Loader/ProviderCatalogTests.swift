import Foundation
import Glibc
import Injection
@testable import PriceHost
@testable import PriceHostCore
import PriceHostTesting
import ProviderABI
import Testing

/// The catalog of loaded providers, with real C plugins loaded into this
/// process: one plugin per name, loading stops once the needed providers are
/// there, and routing prefers a fetcher dedicated to the asset.
@Suite(.serialized)
struct ProviderCatalogTests {
    static let source = BuiltProducts.packageRoot + "/Tests/EndToEndTests/Fixtures/test_plugin.c"

    /// A C test plugin providing `provider`, built once per name.
    static func plugin(_ provider: String, defines: [String] = []) throws -> String {
        try CPluginCompiler.compile(source: source, defines: ["PROVIDER=\"\(provider)\""] + defines, name: "libCatalog\(provider).so")
    }

    /// A catalog over a config naming `plugins`, and the lines it logged.
    static func catalog(_ plugins: [String], in directory: TemporaryDirectory) throws -> (ProviderCatalog, Container) {
        let list = plugins.map { "\"\($0)\"" }.joined(separator: ", ")
        let path = try directory.write(#"{"plugins": [\#(list)]}"#, to: "plugins.json")
        let config = try ConfigParser.parse(Array(try String(contentsOfFile: path, encoding: .utf8).utf8), path: path, environment: [:])
        let diagnostics = Diagnostics(sink: { _ in })
        let container = CompositionRoot.makeContainer(config: config, diagnostics: diagnostics)
        let loader = CompositionRoot.makeLoader(config: config, environment: [:], diagnostics: diagnostics, container: container)
        return (ProviderCatalog(loader: loader, config: config, container: container), container)
    }

    @Test func theFirstPluginForANameWinsAndTheSecondIsRefusedNamingBoth() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try Self.plugin("twin")
        let second = try Self.plugin("twin", defines: ["AMOUNT=\"2\""])
        let (catalog, _) = try Self.catalog([first, second], in: directory)
        catalog.loadAll()
        #expect(catalog.report.plugins.map(\.path) == [first])
        #expect(catalog.duplicates == [PluginFailure(
            path: second, provider: "twin", reason: "provider 'twin' is already provided by \(first); remove one of the two", duplicateOf: first)])
    }

    @Test func loadingStopsOnceTheNeededProvidersArePresent() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (catalog, _) = try Self.catalog([try Self.plugin("alpha"), try Self.plugin("beta"), "/nowhere/libGone.so"], in: directory)
        catalog.load(until: ["alpha"])
        #expect(catalog.report.plugins.map(\.name) == ["alpha"])
        #expect(catalog.report.failures.isEmpty)
        catalog.load(until: nil)
        #expect(Set(catalog.report.plugins.map(\.name)) == ["alpha", "beta"])
        #expect(catalog.report.failures.map(\.path).contains("/nowhere/libGone.so"))
    }

    @Test func aFetcherDedicatedToTheAssetWinsOverTheGeneralOne() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (catalog, container) = try Self.catalog([try Self.plugin("ctest")], in: directory)
        catalog.loadAll()
        let plugin = try #require(catalog.plugin(named: "ctest"))
        let dedicated = plugin.fetchers.compactMap(\.asset)
        for asset in dedicated { #expect(catalog.fetcherName(provider: "ctest", asset: asset) == "ctest/\(asset)") }
        #expect(catalog.fetcherName(provider: "ctest", asset: "ZZZ9") == (plugin.fetcherNames.contains("ctest") ? "ctest" : nil))
        #expect(catalog.fetcherName(provider: "nobody", asset: "BTC") == nil)
        // Registered into the container under the same names.
        #expect(Set(container.names(for: PriceFetcher.self)).isSuperset(of: plugin.fetcherNames))
    }

    @Test func claimsKeepTheFirstFileForEachName() {
        var claims = ProviderCatalog.Claims()
        #expect(claims.claim("file", by: "/a.so") == nil)
        #expect(claims.claim("peg", by: "/b.so") == nil)
        #expect(claims.claim("file", by: "/c.so") == "provider 'file' is already provided by /a.so; remove one of the two")
        #expect(claims.file(providing: "file") == "/a.so")
        #expect(claims.file(providing: "nobody") == nil)
    }

    @Test func aFileThatIsNotELFIsRefusedWithWhy() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let text = try directory.write("not a library", to: "libText.so")
        let (catalog, _) = try Self.catalog([text], in: directory)
        catalog.loadAll()
        #expect(catalog.report.failures == [PluginFailure(
            path: text, reason: "not an ELF shared library (the file does not start with the ELF magic number)")])
    }

    @Test func aWrongPinIsRefusedNamingBothHashes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let text = try directory.write("some bytes", to: "libPinned.so")
        let file = open(text, O_RDONLY)
        defer { close(file) }
        let pin = String(repeating: "0", count: 64)
        switch PluginPin.hash(file, checking: (pin, "plugins[0].sha256")) {
        case .success(let digest):
            Issue.record("a wrong pin was accepted: \(digest)")
        case .failure(let refusal):
            #expect(refusal.reason.hasPrefix("sha256 is "))
            #expect(refusal.reason.hasSuffix(", but plugins[0].sha256 pins \(pin); if the plugin was upgraded on purpose, update the pin"))
        }
    }
}
