import Foundation
import PriceHostTestTraits
import PriceHostTesting
import Testing

/// `pricehost check --plugin PATH`, the plugin author's conformance check:
/// the C template passes; each broken plugin gets its specific finding.
@Suite(.offThePool, .timeLimit(.minutes(2)))
struct ConformanceTests {
    func conformance(of plugin: String, config: String? = nil) throws -> CommandResult {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var arguments = ["check", "--plugin", plugin]
        if let config { arguments += ["--config", try directory.write(config, to: "plugins.json")] }
        return try CommandRunner.run(BuiltProducts.pricehost, arguments, currentDirectory: directory.path)
    }

    @Test func cTemplatePasses() throws {
        let server = try LoopbackHTTPServer { request, _ in
            request.path == "/BTC-USD" ? .init(body: #"{"price": "64000.50"}"#) : .init(status: 404)
        }
        defer { server.stop() }
        let template = try CPluginCompiler.compile(source: BuiltProducts.packageRoot + "/Templates/CProvider/template_provider.c",
                                                   name: "libTemplateProvider.so")
        let result = try conformance(of: template, config: #"{"providers": {"template": {"baseURL": "\#(server.baseURL)"}}}"#)
        #expect(result == CommandResult(status: 0, standardOutput: """
            plugin template 1.0.0 (\(template)), fetchers: template
              fetch BTC-USD through template: 64000.5
            conformance passed

            """, standardError: ""))
    }

    @Test func pluginThatPricesAnythingAndIgnoresSettingsGetsBothFindings() throws {
        let plugin = try Sandbox.testPlugin()
        let result = try conformance(of: plugin)
        #expect(result.status == 3, "\(result)")
        #expect(result.errorLines == [
            "pricehost: error: plugin \(plugin): answered ZZZ999ZZZ-USD, an asset that does not exist, with 100.25; answer such a request with a not_found error",
            #"pricehost: error: plugin \#(plugin): accepted settings with an unknown key ({"conformanceCheckUnknownKey": true}) without a word; reject unknown keys (return NULL after logging why) or at least log a warning, so a typo in plugins.json is caught"#,
        ])
        #expect(result.outputLines.last == "conformance failed: 2 finding(s)")
    }

    @Test func completionCalledTwiceIsAFinding() throws {
        let plugin = try Sandbox.testPlugin(["VARIANT_TWICE"], name: "libTwice.so")
        let result = try conformance(of: plugin)
        #expect(result.status == 3, "\(result)")
        #expect(result.errorLines.contains { $0.hasPrefix("pricehost: error: plugin \(plugin): called a fetch completion more than once (") }, "\(result)")
    }

    @Test func fetchThatNeverCompletesIsAFinding() throws {
        let plugin = try Sandbox.testPlugin(["VARIANT_NO_COMPLETION"], name: "libSilent.so")
        let result = try conformance(of: plugin)
        #expect(result.status == 3, "\(result)")
        #expect(result.errorLines.contains("pricehost: error: plugin \(plugin): never completed the fetch BTC-USD through ctest (waited 5.0 seconds)"), "\(result)")
    }

    @Test func brokenDescriptorIsAFinding() throws {
        let plugin = try Sandbox.testPlugin(["VARIANT_WRONG_MAGIC"], name: "libMagic.so")
        let result = try conformance(of: plugin)
        #expect(result == CommandResult(status: 3, standardOutput: "conformance failed: 1 finding(s)\n", standardError: """
            pricehost: error: plugin \(plugin): wrong magic number 0x12345678 (expected 0x50485031): the entry did not return a pricehost descriptor

            """))
    }
}

/// Quotes the host refuses, or whose time cannot be right, are findings of
/// `check --plugin`, never "failed cleanly".
@Suite(.offThePool, .timeLimit(.minutes(2)))
struct ConformanceQuoteTests {
    func conformance(_ defines: [String], name: String) throws -> (CommandResult, String) {
        let plugin = try Sandbox.testPlugin(defines, name: name)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        return (try CommandRunner.run(BuiltProducts.pricehost, ["check", "--plugin", plugin], currentDirectory: directory.path), plugin)
    }

    @Test(arguments: [("1e5", "libExponent.so"), ("NaN", "libNaN.so")])
    func anAmountTheHostRefusesIsAFinding(amount: String, name: String) throws {
        let (result, plugin) = try conformance(["AMOUNT=\"\(amount)\""], name: name)
        #expect(result.status == 3, "\(result)")
        #expect(result.errorLines.contains(
            "pricehost: error: plugin \(plugin): the host refused its answer to the fetch BTC-USD through ctest: ctest: plugin returned an amount that is not a decimal number: \"\(amount)\""),
            "\(result)")
        #expect(!result.standardOutput.contains("failed cleanly"), "\(result)")
    }

    @Test func answeringAnotherPairIsAFinding() throws {
        let (result, plugin) = try conformance(["ANSWER_ASSET=\"XBT\""], name: "libXBT.so")
        #expect(result.status == 3, "\(result)")
        #expect(result.errorLines.contains(
            "pricehost: error: plugin \(plugin): the host refused its answer to the fetch BTC-USD through ctest: ctest: asked for BTC-USD but the plugin answered XBT-USD"),
            "\(result)")
    }

    @Test func secondsWhereMillisecondsBelongIsAFinding() throws {
        let (result, plugin) = try conformance(["TIMESTAMP_MS=1763640000"], name: "libSeconds.so")
        #expect(result.status == 3, "\(result)")
        #expect(result.errorLines.contains(
            "pricehost: error: plugin \(plugin): answered BTC-USD through ctest with the time 1970-01-21T09:54:00Z, before 2000; timestamp_ms counts milliseconds since 1970, not seconds"),
            "\(result)")
    }

    @Test func aTimeMoreThanADayAheadIsAFinding() throws {
        // 2100-01-01T00:00:00Z.
        let (result, plugin) = try conformance(["TIMESTAMP_MS=4102444800000"], name: "libFuture.so")
        #expect(result.status == 3, "\(result)")
        #expect(result.errorLines.contains(
            "pricehost: error: plugin \(plugin): answered BTC-USD through ctest with the time 2100-01-01T00:00:00Z, more than a day in the future; timestamp_ms counts milliseconds since 1970, in UTC"),
            "\(result)")
    }
}
