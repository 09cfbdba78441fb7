import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// Two plugins with one provider name: `fetch` takes the first in config
/// order; every command that loads all the plugins refuses to start, naming
/// both files; `check --plugin P --config C` reports the clash.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct DuplicateProviderTests {
    /// A sandbox whose config lists a second `file` provider (a C plugin) after the real one.
    func sandboxWithTwoFileProviders() throws -> (Sandbox, impostor: String) {
        let sandbox = try Sandbox(config: "{}", files: ["prices.json": samplePrices])
        let impostor = try Sandbox.testPlugin(["PROVIDER=\"file\""], name: "libFileAgain.so")
        try sandbox.directory.write(configJSON(plugins: ["libFileProvider.so", impostor]), to: "plugins.json")
        return (sandbox, impostor)
    }

    @Test func providersRefusesToStartNamingBothFiles() throws {
        let (sandbox, impostor) = try sandboxWithTwoFileProviders()
        defer { sandbox.remove() }
        let result = try sandbox.run(["providers"])
        #expect(result == CommandResult(status: 3, standardOutput: "", standardError: """
            pricehost: error: plugin \(impostor): provider 'file' is already provided by \(BuiltProducts.plugin("libFileProvider.so")); remove one of the two

            """))
    }

    @Test func watchRefusesToStartNamingBothFiles() throws {
        let (sandbox, impostor) = try sandboxWithTwoFileProviders()
        defer { sandbox.remove() }
        let result = try sandbox.run(["watch", "--asset", "BTC", "--ticks", "1"])
        #expect(result.status == 3, "\(result)")
        #expect(result.standardOutput == "", "\(result)")
        #expect(result.errorLines == [
            "pricehost: error: plugin \(impostor): provider 'file' is already provided by \(BuiltProducts.plugin("libFileProvider.so")); remove one of the two",
        ])
    }

    @Test func fetchTakesTheFirstInConfigOrder() throws {
        let (sandbox, _) = try sandboxWithTwoFileProviders()
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--asset", "BTC"])
        #expect(result == CommandResult(status: 0, standardOutput: "BTC-USD  91234.56  file  2026-11-20T12:00:00Z\n", standardError: ""))
    }

    @Test func checkNeverListsTheSecondAsOk() throws {
        let (sandbox, impostor) = try sandboxWithTwoFileProviders()
        defer { sandbox.remove() }
        let result = try sandbox.run(["check"])
        #expect(result.status == 3, "\(result)")
        #expect(!result.outputLines.contains { $0.contains(impostor) }, "\(result)")
        #expect(result.errorLines.contains(
            "pricehost: error: plugin \(impostor): provider 'file' is already provided by \(BuiltProducts.plugin("libFileProvider.so")); remove one of the two"),
            "\(result)")
    }

    @Test func checkPluginReportsAClashWithTheConfigsOtherPlugins() throws {
        let (sandbox, impostor) = try sandboxWithTwoFileProviders()
        defer { sandbox.remove() }
        let result = try CommandRunner.run(BuiltProducts.pricehost, ["check", "--plugin", impostor, "--config", sandbox.configPath],
                                           currentDirectory: sandbox.directory.path)
        #expect(result.status == 3, "\(result)")
        #expect(result.errorLines.contains(
            "pricehost: error: plugin \(impostor): provider 'file' is also provided by \(BuiltProducts.plugin("libFileProvider.so")) in \(sandbox.configPath); a fetch would use whichever is listed first, and providers, check and watch refuse to start; rename one"),
            "\(result)")
    }

    @Test func checkPluginDoesNotClashWithItself() throws {
        let sandbox = try Sandbox(config: "{}", files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        try sandbox.directory.write(configJSON(plugins: ["libFileProvider.so"]), to: "plugins.json")
        let result = try CommandRunner.run(BuiltProducts.pricehost,
                                           ["check", "--plugin", BuiltProducts.plugin("libFileProvider.so"), "--config", sandbox.configPath],
                                           currentDirectory: sandbox.directory.path)
        #expect(result.status == 0, "\(result)")
        #expect(result.outputLines.last == "conformance passed", "\(result)")
    }
}

/// `check --plugin` without `--config` hands the plugin `{}`, as PLUGINS.md
/// says, even where `./plugins.json` or `PRICEHOST_CONFIG` names a config.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct CheckPluginWithoutConfigTests {
    @Test func aConfigInTheCurrentDirectoryIsNotRead() throws {
        let sandbox = try Sandbox(config: configJSON(plugins: ["libFileProvider.so"]), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let plugin = BuiltProducts.plugin("libFileProvider.so")
        let result = try CommandRunner.run(BuiltProducts.pricehost, ["check", "--plugin", plugin],
                                           environment: ["PRICEHOST_CONFIG": sandbox.configPath],
                                           currentDirectory: sandbox.directory.path)
        // With `{}` the file provider has no `path`, and says so.
        #expect(result == CommandResult(status: 3, standardOutput: "conformance failed: 1 finding(s)\n", standardError: """
            pricehost: error: plugin \(plugin): declined to load (its entry returned NULL): invalid settings: providers.file.path: missing

            """))
    }
}
