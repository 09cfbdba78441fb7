import Foundation
import PriceHostTesting
import Testing

/// Growing a struct is a minor version: the host reads only what the
/// plugin's sizes cover and steps through arrays by the plugin's stride.
@Suite(.timeLimit(.minutes(2)))
struct ABIVersioningTests {
    @Test func pluginBuiltForANewerMinorLoadsAndEachFetcherServes() throws {
        let plugin = try Sandbox.testPlugin(["VARIANT_FUTURE_MINOR", "PROVIDER=\"future\""], name: "libFuture.so")
        let sandbox = try Sandbox(config: configJSON(plugins: ["libFileProvider.so", plugin]), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }

        let providers = try sandbox.run(["providers", "--format", "json"])
        #expect(providers.status == 0, "\(providers)")
        #expect(providers.standardOutput.contains(#"{"name":"future","version":"1.7.0","path":"\#(plugin)","abi":"1.7","fetchers":["future","future/ETH"]}"#))

        // ETH goes to the dedicated fetcher, the second element of an array whose
        // stride is larger than the host's own ph_fetcher: read by the host's
        // stride, it would be garbage.
        let result = try sandbox.run(["fetch", "--provider", "future", "--asset", "BTC,ETH", "--format", "csv"])
        #expect(result == CommandResult(status: 0, standardOutput: """
            asset,currency,amount,provider,timestamp
            BTC,USD,100.25,future,2025-11-20T12:00:00Z
            ETH,USD,2000.5,future,2025-11-20T12:00:00Z

            """, standardError: ""))
    }

    @Test func fetcherRegisteredThroughTheHostTableServesItsAsset() throws {
        let plugin = try Sandbox.testPlugin(["VARIANT_REGISTER", "PROVIDER=\"reg\""], name: "libRegister.so")
        let sandbox = try Sandbox(config: configJSON(plugins: [plugin]), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--provider", "reg", "--asset", "ETH,BTC", "--format", "csv"])
        #expect(result == CommandResult(status: 0, standardOutput: """
            asset,currency,amount,provider,timestamp
            ETH,USD,3000.75,reg,2025-11-20T12:00:00Z
            BTC,USD,100.25,reg,2025-11-20T12:00:00Z

            """, standardError: ""))
    }

    @Test func pluginErrorCarriesItsOwnMessage() throws {
        let plugin = try Sandbox.testPlugin()
        let sandbox = try Sandbox(config: configJSON(plugins: [plugin]), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--provider", "ctest", "--asset", "NOPE"])
        #expect(result == CommandResult(status: 1, standardOutput: "", standardError: "pricehost: error: ctest: no such asset NOPE here\n"))
    }
}
