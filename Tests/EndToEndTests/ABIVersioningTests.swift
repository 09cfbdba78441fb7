import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// Growing a struct is a minor version: the host reads only what the
/// plugin's sizes cover and steps through arrays by the plugin's stride.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct ABIVersioningTests {
    @Test func pluginBuiltForANewerMinorLoadsAndEachFetcherServes() throws {
        let plugin = try Sandbox.testPlugin(["VARIANT_FUTURE_MINOR", "PROVIDER=\"future\""], name: "libFuture.so")
        let sandbox = try Sandbox(config: configJSON(plugins: ["libFileProvider.so", plugin]), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }

        let providers = try sandbox.run(["providers", "--format", "json"])
        #expect(providers.status == 0, "\(providers)")
        #expect(providers.standardOutput.contains(#"{"name":"future","version":"1.7.0","path":"\#(plugin)","abi":"1.7","sha256":"\#(try sha256sum(plugin))","fetchers":["future","future/ETH"],"stream":null}"#))

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

    @Test func pluginBuiltAgainstThe1_0HeaderStillLoadsAndServes() throws {
        let oldHeader = BuiltProducts.packageRoot + "/Tests/EndToEndTests/Fixtures/abi-1.0"
        let plugin = try CPluginCompiler.compile(source: Sandbox.testPluginSource, defines: ["PROVIDER=\"old\""],
                                                 name: "libOld.so", includeDirectory: oldHeader)
        let sandbox = try Sandbox(config: configJSON(plugins: [plugin]), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let providers = try sandbox.run(["providers", "--format", "json"])
        #expect(providers.standardOutput.contains(#""name":"old","version":"0.9.1","path":"\#(plugin)","abi":"1.0""#), "\(providers)")
        let result = try sandbox.run(["fetch", "--provider", "old", "--asset", "BTC", "--format", "csv"])
        #expect(result.outputLines == ["asset,currency,amount,provider,timestamp", "BTC,USD,100.25,old,2025-11-20T12:00:00Z"], "\(result)")
    }

    @Test func pluginBuiltAgainstThe1_1HeaderStillFetchesThroughHTTP() throws {
        // Its ph_http_request ends before 1.2's retry_answer: the host must read no further.
        let server = try LoopbackHTTPServer { request, _ in
            request.path == "/prices/BTC-USD" ? .init(body: "64000.5") : .init(status: 404, body: "no")
        }
        defer { server.stop() }
        let oldHeader = BuiltProducts.packageRoot + "/Tests/EndToEndTests/Fixtures/abi-1.1"
        let plugin = try CPluginCompiler.compile(source: Sandbox.testPluginSource, defines: ["VARIANT_HTTP", "PROVIDER=\"old11\""],
                                                 name: "libOld11.so", includeDirectory: oldHeader)
        let sandbox = try Sandbox(config: """
            {"plugins": ["\(plugin)"], "providers": {"old11": {"url":"\(server.baseURL)/prices", "maxAttempts": 1}}}
            """)
        defer { sandbox.remove() }
        let providers = try sandbox.run(["providers", "--format", "json"])
        #expect(providers.standardOutput.contains(#""name":"old11","version":"0.9.1","path":"\#(plugin)","abi":"1.1""#), "\(providers)")
        let result = try sandbox.run(["fetch", "--provider", "old11", "--asset", "BTC", "--format", "csv"])
        #expect(result.outputLines == ["asset,currency,amount,provider,timestamp", "BTC,USD,64000.5,old11,2025-11-20T12:00:00Z"], "\(result)")
    }

    @Test func cPluginFetchesThroughTheHostsHTTPService() throws {
        let seen = LockedBox<[String: String]>([:])
        let server = try LoopbackHTTPServer { request, _ in
            seen.set(request.headers)
            return request.path == "/prices/BTC-USD" ? .init(body: "64000.5") : .init(status: 404, body: "no")
        }
        defer { server.stop() }
        let plugin = try Sandbox.testPlugin(["VARIANT_HTTP", "PROVIDER=\"chttp\""], name: "libHTTP.so")
        let config = """
            {"plugins": ["\(plugin)"], "providers": {"chttp": {"url":"\(server.baseURL)/prices", "maxAttempts": 1}}}
            """
        let sandbox = try Sandbox(config: config)
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--provider", "chttp", "--asset", "BTC,ETH", "--format", "csv"])
        #expect(result == CommandResult(status: 4, standardOutput: """
            asset,currency,amount,provider,timestamp
            BTC,USD,64000.5,chttp,2025-11-20T12:00:00Z

            """, standardError: "pricehost: error: chttp: HTTP 404 with 2 bytes\n"))
        #expect(server.requestCounts == ["/prices/BTC-USD": 1, "/prices/ETH-USD": 1])
        #expect(seen.get()["x-test-plugin"] == "c")
        #expect(seen.get()["user-agent"] == "pricehost/0.1.0")
    }
}
