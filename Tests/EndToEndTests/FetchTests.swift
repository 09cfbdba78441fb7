import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct FetchTests {
    @Test func coinbaseShapedFileServesItsOneQuote() throws {
        let sandbox = try Sandbox(config: configJSON(plugins: ["libFileProvider.so"]),
                                  files: ["prices.json": #"{"data":{"base":"BTC","currency":"USD","amount":"15840.01"}}"#])
        defer { sandbox.remove() }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_763_640_000)],
                                              ofItemAtPath: sandbox.directory.file("prices.json"))
        let result = try sandbox.run(["fetch", "--provider", "file", "--asset", "BTC", "--format", "json"])
        #expect(result.withoutAges == CommandResult(status: 0, standardOutput: """
            {"asset":"BTC","currency":"USD","amount":"15840.01","provider":"file","timestamp":"2025-11-20T12:00:00Z","status":"live"}

            """, standardError: ""))
    }

    @Test func listFileServesEachPairInTextColumns() throws {
        let sandbox = try Sandbox(config: configJSON(plugins: ["libFileProvider.so"]), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--asset", "btc,ETH"])
        #expect(result == CommandResult(status: 0, standardOutput: """
            BTC-USD  91234.56  file  2026-11-20T12:00:00Z
            ETH-USD  3120.48   file  2026-11-20T12:00:00Z

            """, standardError: ""))
    }

    @Test func mapFileServesAmountsAndQuoteObjects() throws {
        let prices = #"{"BTC-EUR": "86010.07", "ETH-EUR": {"amount": 2941.90, "timestamp": "2026-11-20T12:00:00.250Z"}}"#
        let sandbox = try Sandbox(config: configJSON(plugins: ["libFileProvider.so"]), files: ["prices.json": prices])
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--asset", "ETH", "--currency", "EUR", "--format", "csv"])
        #expect(result == CommandResult(status: 0, standardOutput: """
            asset,currency,amount,provider,timestamp
            ETH,EUR,2941.9,file,2026-11-20T12:00:00.250Z

            """, standardError: ""))
    }

    @Test func csvFileServesWithAndWithoutTimestamps() throws {
        let csv = """
            base,currency,amount,timestamp
            # bundled prices
            BTC,USD,91234.56,2026-11-20T12:00:00Z
            SOL,USD,142.375,
            """
        let config = configJSON(plugins: ["libFileProvider.so"]).replacingOccurrences(of: "prices.json", with: "prices.csv")
        let sandbox = try Sandbox(config: config, files: ["prices.csv": csv])
        defer { sandbox.remove() }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_763_640_000)],
                                              ofItemAtPath: sandbox.directory.file("prices.csv"))
        let result = try sandbox.run(["fetch", "--asset", "BTC,SOL", "--format", "json"])
        #expect(result.withoutAges == CommandResult(status: 0, standardOutput: """
            {"asset":"BTC","currency":"USD","amount":"91234.56","provider":"file","timestamp":"2026-11-20T12:00:00Z","status":"live"}
            {"asset":"SOL","currency":"USD","amount":"142.375","provider":"file","timestamp":"2025-11-20T12:00:00Z","status":"live"}

            """, standardError: ""))
    }

    @Test func malformedPriceFileNamesFileAndLine() throws {
        let sandbox = try Sandbox(config: configJSON(plugins: ["libFileProvider.so"]),
                                  files: ["prices.json": "[\n  {\"base\": \"BTC\", \"currency\": \"USD\", \"amount\": \"1\"},\n  {\"base\": \"ETH\" \"currency\": \"USD\"}\n]\n"])
        defer { sandbox.remove() }
        let path = sandbox.directory.file("prices.json")
        let result = try sandbox.run(["fetch", "--asset", "BTC"])
        let reason = "\(path): line 3, column 18: expected ',' or '}' after an object member, found '\"'"
        #expect(result == CommandResult(status: 1, standardOutput: "", standardError: """
            pricehost: warning: libFileProvider.so: \(reason)
            pricehost: error: file: \(reason)

            """))
    }

    @Test func cPluginServesThroughTheABI() throws {
        let sandbox = try Sandbox(config: configJSON(plugins: ["libFileProvider.so", "libPegProvider.so"]),
                                  files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--provider", "peg", "--asset", "USDC", "--format", "csv"])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardError == "")
        let lines = result.outputLines
        #expect(lines.count == 2)
        #expect(lines.first == "asset,currency,amount,provider,timestamp")
        #expect(lines.last?.hasPrefix("USDC,USD,1,peg,") == true)

        let unknown = try sandbox.run(["fetch", "--provider", "peg", "--asset", "BTC"])
        #expect(unknown == CommandResult(status: 1, standardOutput: "",
                                         standardError: "pricehost: error: peg: BTC-USD is not a peg this provider knows\n"))
    }

    @Test func cPluginCompletingOnAnotherThreadServesManyAssetsInOrder() throws {
        let plugin = try Sandbox.testPlugin(["VARIANT_THREAD"], name: "libThreaded.so")
        let sandbox = try Sandbox(config: configJSON(plugins: [plugin]), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let assets = (1...12).map { "A\($0)" }
        let result = try sandbox.run(["fetch", "--provider", "ctest", "--asset", assets.joined(separator: ","), "--format", "csv"])
        #expect(result.status == 0, "\(result)")
        #expect(result.outputLines == ["asset,currency,amount,provider,timestamp"]
            + assets.map { "\($0),USD,100.25,ctest,2025-11-20T12:00:00Z" })
    }

    @Test func someAssetsFailingPrintsTheRestAndExitsPartial() throws {
        let sandbox = try Sandbox(config: configJSON(plugins: ["libFileProvider.so"]), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let path = sandbox.directory.file("prices.json")
        let result = try sandbox.run(["fetch", "--asset", "BTC,DOGE,ETH", "--format", "json"])
        #expect(result.withoutAges == CommandResult(status: 4, standardOutput: """
            {"asset":"BTC","currency":"USD","amount":"91234.56","provider":"file","timestamp":"2026-11-20T12:00:00Z","status":"live"}
            {"asset":"ETH","currency":"USD","amount":"3120.48","provider":"file","timestamp":"2026-11-20T12:00:00Z","status":"live"}

            """, standardError: "pricehost: error: file: no price for DOGE-USD in \(path) (it has: BTC-USD, ETH-USD)\n"))
    }

    @Test func assetsRoleSendsAnAssetToItsConfiguredProvider() throws {
        let config = configJSON(plugins: ["libFileProvider.so", "libPegProvider.so"],
                                extra: ",\n  \"assets\": {\"USDT\": {\"provider\": \"peg\"}}")
        let sandbox = try Sandbox(config: config, files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--asset", "BTC,USDT", "--format", "csv"])
        #expect(result.status == 0, "\(result)")
        #expect(result.outputLines.count == 3)
        #expect(result.outputLines[1] == "BTC,USD,91234.56,file,2026-11-20T12:00:00Z")
        #expect(result.outputLines[2].hasPrefix("USDT,USD,1,peg,"))
    }

    @Test(arguments: [
        (["fetch", "--asset", "../etc"], "pricehost: error: --asset \"../etc\" is not an asset code (2 to 10 letters or digits)"),
        (["fetch", "--asset", "B"], "pricehost: error: --asset \"B\" is not an asset code (2 to 10 letters or digits)"),
        (["fetch", "--asset", "BTC", "--currency", "US D"], "pricehost: error: --currency \"US D\" is not a currency code (2 to 10 letters or digits)"),
        (["fetch"], "pricehost: error: fetch needs --asset CODE (or a list: --asset BTC,ETH)"),
        (["fetch", "--asset", "BTC", "--format", "xml"], "pricehost: error: --format must be text, json or csv, not 'xml'"),
        (["fetch", "--asset", "BTC", "--verbose"], "pricehost: error: unknown option '--verbose'; see 'pricehost --help'"),
        (["fetch", "--asset", "BTC", "--provider", "nope"], "pricehost: error: unknown provider 'nope' (from --provider); loaded providers: file"),
        (["frobnicate"], "pricehost: error: unknown command 'frobnicate'; commands are fetch, watch, serve, history, providers, check, new-plugin, completions"),
        (["providers", "--asset", "BTC"], "pricehost: error: option --asset does not apply to 'providers'"),
    ])
    func usageErrorsAreOneLineAndExitTwo(arguments: [String], message: String) throws {
        let sandbox = try Sandbox(config: configJSON(plugins: ["libFileProvider.so"]), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let result = try sandbox.run(arguments)
        #expect(result == CommandResult(status: 2, standardOutput: "", standardError: message + "\n"))
    }

    @Test func helpAndVersionPrintToStdout() throws {
        let help = try CommandRunner.run(BuiltProducts.pricehost, ["--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("pricehost fetch --asset CODE[,CODE...]"))
        #expect(help.standardOutput.contains("0 success   1 fetch failed   2 usage error   3 config or plugin error"))
        let version = try CommandRunner.run(BuiltProducts.pricehost, ["--version"])
        #expect(version == CommandResult(status: 0, standardOutput: "pricehost 0.1.0 (plugin ABI 1.4)\n", standardError: ""))
    }

    @Test func shippedConfigWorksFromTheRepositoryRoot() throws {
        let result = try CommandRunner.run(BuiltProducts.pricehost, ["fetch", "--provider", "file", "--asset", "BTC"],
                                           currentDirectory: BuiltProducts.packageRoot)
        #expect(result == CommandResult(status: 0, standardOutput: "BTC-USD  91234.56  file  2026-11-20T12:00:00Z\n", standardError: ""))
    }
}
