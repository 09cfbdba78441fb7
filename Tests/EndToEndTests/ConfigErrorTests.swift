import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// A config error is one line naming the file and the key path (or line),
/// and exit status 3.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct ConfigErrorTests {
    func run(config: String, _ arguments: [String] = ["fetch", "--asset", "BTC"], environment: [String: String] = [:]) throws -> (CommandResult, String) {
        let sandbox = try Sandbox(config: config, files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        return (try sandbox.run(arguments, environment: environment), sandbox.configPath)
    }

    @Test func malformedJSONNamesTheLineAndColumn() throws {
        let (result, path) = try run(config: "{\n  \"plugins\": [\"libFileProvider.so\",]\n}\n")
        #expect(result == CommandResult(status: 3, standardOutput: "", standardError: """
            pricehost: error: \(path): line 2, column 36: unexpected ']', expected a value

            """))
    }

    @Test func wrongTypeNamesTheKeyPath() throws {
        let (result, path) = try run(config: #"{"plugins": ["libFileProvider.so"], "defaults": {"provider": 7}}"#)
        #expect(result == CommandResult(status: 3, standardOutput: "",
                                        standardError: "pricehost: error: \(path): defaults.provider: expected a string, found a number\n"))
    }

    @Test func unknownKeyNamesTheKeyAndTheKnownOnes() throws {
        let (result, path) = try run(config: #"{"plugins": [], "provders": {}}"#)
        #expect(result == CommandResult(status: 3, standardOutput: "", standardError: """
            pricehost: error: \(path): provders: unknown key (did you mean providers?); expected one of: plugins, pluginDirectories, providers, defaults, assets, crossVia, serve, shared, store, webhooks

            """))
    }

    @Test func unknownNestedKeyNamesItsFullPath() throws {
        let (result, path) = try run(config: #"{"assets": {"ETH": {"provider": "file", "bounds": {"minimum": "1"}}}}"#)
        #expect(result == CommandResult(status: 3, standardOutput: "", standardError: """
            pricehost: error: \(path): assets.ETH.bounds.minimum: unknown key; expected one of: min, max

            """))
    }

    @Test func defaultNamingAnUnloadedProviderIsAnErrorWhenUsed() throws {
        let config = #"{"plugins": ["libFileProvider.so"], "providers": {"file": {"path": "prices.json"}}, "defaults": {"provider": "coinbase"}}"#
        let (result, path) = try run(config: config)
        #expect(result == CommandResult(status: 3, standardOutput: "", standardError: """
            pricehost: error: \(path): defaults.provider: no loaded plugin provides 'coinbase'; loaded providers: file

            """))
        // Not used: an explicit --provider works despite the dangling default.
        let (explicit, _) = try run(config: config, ["fetch", "--provider", "file", "--asset", "BTC"])
        #expect(explicit.status == 0, "\(explicit)")
    }

    @Test func assetNamingAnUnloadedProviderNamesTheAssetKey() throws {
        let config = configJSON(plugins: ["libFileProvider.so"], extra: ",\n  \"assets\": {\"ETH\": {\"provider\": \"coinbase\"}}")
        let (result, path) = try run(config: config, ["fetch", "--asset", "ETH"])
        #expect(result == CommandResult(status: 3, standardOutput: "", standardError: """
            pricehost: error: \(path): assets.ETH.provider: no loaded plugin provides 'coinbase'; loaded providers: file

            """))
    }

    @Test func unsetVariableNamesTheVariableAndTheKey() throws {
        let config = #"{"plugins": ["libFileProvider.so"], "providers": {"file": {"path": "${PRICES_DIR}/prices.json"}}}"#
        let (result, path) = try run(config: config)
        #expect(result == CommandResult(status: 3, standardOutput: "", standardError: """
            pricehost: error: \(path): providers.file.path: environment variable PRICES_DIR is not set

            """))
    }

    @Test func setVariableIsSubstitutedIntoSettings() throws {
        let sandbox = try Sandbox(config: """
            {"plugins": ["libFileProvider.so"], "providers": {"file": {"path": "${PRICES_DIR}/prices.json"}}, "defaults": {"provider": "file"}}
            """, files: ["data/prices.json": samplePrices])
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--asset", "ETH"], environment: ["PRICES_DIR": "data"])
        #expect(result == CommandResult(status: 0, standardOutput: "ETH-USD  3120.48  file  2026-11-20T12:00:00Z\n", standardError: ""))
    }

    @Test func missingExplicitConfigIsNamed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = try CommandRunner.run(BuiltProducts.pricehost, ["providers", "--config", "nowhere.json"], currentDirectory: directory.path)
        #expect(result == CommandResult(status: 3, standardOutput: "", standardError: """
            pricehost: error: \(directory.file("nowhere.json")): config file (from --config) does not exist

            """))
    }

    @Test func noConfigAnywhereSaysWhereItLooked() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = try CommandRunner.run(BuiltProducts.pricehost, ["providers"], environment: ["HOME": directory.path],
                                           currentDirectory: directory.path)
        #expect(result == CommandResult(status: 3, standardOutput: "", standardError: """
            pricehost: error: no config file found (looked for \(directory.file("plugins.json")), \(directory.file(".config/pricehost/plugins.json")), /etc/pricehost/plugins.json); pass --config PATH or set PRICEHOST_CONFIG

            """))
    }

    @Test func configFromEnvironmentVariableIsUsed() throws {
        let sandbox = try Sandbox(config: configJSON(plugins: ["libFileProvider.so"]), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let elsewhere = try TemporaryDirectory()
        defer { elsewhere.remove() }
        let result = try CommandRunner.run(BuiltProducts.pricehost, ["fetch", "--asset", "BTC"],
                                           environment: ["PRICEHOST_CONFIG": sandbox.configPath], currentDirectory: elsewhere.path)
        #expect(result == CommandResult(status: 0, standardOutput: "BTC-USD  91234.56  file  2026-11-20T12:00:00Z\n", standardError: ""))
    }

    @Test func malformedPinNamesTheKey() throws {
        let (result, path) = try run(config: #"{"plugins": [{"path": "libFileProvider.so", "sha256": "00"}]}"#)
        #expect(result == CommandResult(status: 3, standardOutput: "", standardError: """
            pricehost: error: \(path): plugins[0].sha256: expected 64 hex digits (the output of sha256sum, or the sha256 that `pricehost providers --format json` prints)

            """))
    }

    @Test func badFileProviderSettingsFailThePluginWithTheKey() throws {
        let config = #"{"plugins": ["libFileProvider.so"], "providers": {"file": {"path": "prices.json", "pth": "x"}}, "defaults": {"provider": "file"}}"#
        let (result, path) = try run(config: config)
        let plugin = BuiltProducts.plugin("libFileProvider.so")
        _ = path
        #expect(result == CommandResult(status: 3, standardOutput: "", standardError: """
            pricehost: warning: plugin \(plugin): declined to load (its entry returned NULL): invalid settings: providers.file.pth: unknown key (did you mean path?); expected one of: path
            pricehost: error: \(plugin): no loaded plugin provides 'file', and this plugin, which may be it, failed to load: declined to load (its entry returned NULL): invalid settings: providers.file.pth: unknown key (did you mean path?); expected one of: path

            """))
    }

    /// A settings typo makes the plugin decline: `--provider` then names the plugin's
    /// own reason with exit 3, not an unknown provider with exit 2.
    @Test func aPluginThatDeclinedIsTheErrorForTheProviderAskedFor() throws {
        let config = #"{"plugins": ["libFileProvider.so"], "providers": {"file": {"paht": "prices.json"}}}"#
        let (result, _) = try run(config: config, ["fetch", "--provider", "file", "--asset", "BTC"])
        let plugin = BuiltProducts.plugin("libFileProvider.so")
        #expect(result.status == 3, "\(result)")
        #expect(result.errorLines.last == "pricehost: error: \(plugin): no loaded plugin provides 'file', and this plugin, which may be it, failed to load: declined to load (its entry returned NULL): invalid settings: providers.file.paht: unknown key (did you mean path?); expected one of: path", "\(result)")
    }

    @Test func checkWarnsAboutSettingsForAProviderNotLoaded() throws {
        let config = configJSON(plugins: ["libFileProvider.so"]).replacingOccurrences(
            of: #""providers": {"file": {"path": "prices.json"}}"#,
            with: #""providers": {"file": {"path": "prices.json"}, "coinbase": {"baseURL": "http://127.0.0.1:1"}}"#)
        let (result, path) = try run(config: config, ["check"])
        #expect(result == CommandResult(status: 0, standardOutput: """
            config \(path): parsed
            plugin file 1.0.0 (\(BuiltProducts.plugin("libFileProvider.so"))): ok, fetchers: file
              fetch BTC-USD through file: 91234.56
            check passed: 1 plugin(s), 1 warning(s)

            """, standardError: """
            pricehost: warning: \(path): providers.coinbase: settings for a provider no loaded plugin provides (kept for when one is added)

            """))
    }

    @Test func directoryOrDeviceAsConfigIsNamedForWhatItIs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let asDirectory = try CommandRunner.run(BuiltProducts.pricehost, ["check", "--config", directory.path])
        #expect(asDirectory == CommandResult(status: 3, standardOutput: "",
                                             standardError: "pricehost: error: \(directory.path): is a directory, not a config file\n"))
        let asDevice = try CommandRunner.run(BuiltProducts.pricehost, ["check", "--config", "/dev/zero"])
        #expect(asDevice == CommandResult(status: 3, standardOutput: "", standardError: "pricehost: error: /dev/zero: is not a regular file\n"))
    }
}
