import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// `pricehost watch`, run as a deployment would: bounded by --ticks, or
/// stopped by a signal. Timings here only order events (a change made
/// between ticks one second apart); nothing asserts how fast anything is.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct WatchTests {
    /// Runs `script` with bash in the sandbox; `$PRICEHOST` is the binary, `$CONFIG` the config.
    func bash(_ script: String, in sandbox: Sandbox) throws -> CommandResult {
        try CommandRunner.run("/bin/bash", ["-c", script],
                              environment: ["PRICEHOST": BuiltProducts.pricehost, "CONFIG": sandbox.configPath],
                              currentDirectory: sandbox.directory.path, timeout: 60)
    }

    @Test func printsOneJSONLinePerQuotePerTick() throws {
        let sandbox = try Sandbox(config: configJSON(plugins: ["libFileProvider.so"]), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let result = try sandbox.run(["watch", "--asset", "BTC,ETH", "--interval", "1", "--ticks", "3"])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardError == "")
        let btc = #"{"asset":"BTC","currency":"USD","amount":"91234.56","provider":"file","timestamp":"2026-11-20T12:00:00Z","status":"live"}"#
        let eth = #"{"asset":"ETH","currency":"USD","amount":"3120.48","provider":"file","timestamp":"2026-11-20T12:00:00Z","status":"live"}"#
        #expect(result.withoutAges.outputLines == [btc, eth, btc, eth, btc, eth])
        // Each line's age, from the file's time to when watch wrote it: days here.
        #expect(ageMilliseconds(in: result.standardOutput).count == 6)
        #expect(ageMilliseconds(in: result.standardOutput).allSatisfy { $0 > 86_400_000 })
    }

    @Test func failureIsALineWithAnErrorAndTheLoopGoesOn() throws {
        let sandbox = try Sandbox(config: configJSON(plugins: ["libFileProvider.so"]), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let result = try sandbox.run(["watch", "--asset", "DOGE,BTC", "--interval", "1", "--ticks", "2"])
        #expect(result.status == 0, "\(result)")
        #expect(result.outputLines.count == 4)
        #expect(result.outputLines[0].hasPrefix(#"{"asset":"DOGE","currency":"USD","error":"file: no price for DOGE-USD in "#), "\(result)")
        #expect(result.outputLines[3].hasPrefix(#"{"asset":"BTC","currency":"USD","amount":"91234.56""#))
    }

    @Test func csvHasOneHeaderAndStableColumns() throws {
        let sandbox = try Sandbox(config: configJSON(plugins: ["libFileProvider.so"]), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let result = try sandbox.run(["watch", "--asset", "ETH", "--interval", "1", "--ticks", "2", "--format", "csv"])
        #expect(result == CommandResult(status: 0, standardOutput: """
            asset,currency,amount,provider,timestamp
            ETH,USD,3120.48,file,2026-11-20T12:00:00Z
            ETH,USD,3120.48,file,2026-11-20T12:00:00Z

            """, standardError: ""))
    }

    /// A shell loop that waits until `file` has `count` complete lines, at most 10 s (then the test's expectations say what was missing).
    static func waitForLines(_ count: Int, in file: String) -> String {
        "for _ in $(seq 1000); do [ \"$(cat \(file) 2>/dev/null | wc -l)\" -ge \(count) ] && break; sleep 0.01; done"
    }

    @Test func changedPriceFileShowsUpOnTheNextTick() throws {
        let sandbox = try Sandbox(config: configJSON(plugins: ["libFileProvider.so"]), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        // The file changes once the first tick is out (waited for, at most 10 s), before the next.
        let result = try bash("""
            "$PRICEHOST" watch --config "$CONFIG" --asset BTC --interval 1 --ticks 3 --format csv > out.csv &
            watcher=$!
            \(Self.waitForLines(2, in: "out.csv"))
            printf '[{"base":"BTC","currency":"USD","amount":"99999.99","timestamp":"2026-11-21T00:00:00Z"}]' > prices.json.new; mv prices.json.new prices.json
            wait $watcher
            status=$?
            cat out.csv
            exit $status
            """, in: sandbox)
        #expect(result.status == 0, "\(result)")
        #expect(result.outputLines.dropFirst().first == "BTC,USD,91234.56,file,2026-11-20T12:00:00Z")
        #expect(result.outputLines.last == "BTC,USD,99999.99,file,2026-11-21T00:00:00Z")
    }

    @Test func pluginDroppedIntoTheDirectoryServesFromTheNextTick() throws {
        let plugin = try Sandbox.testPlugin()
        let sandbox = try Sandbox(config: configJSON(plugins: ["libFileProvider.so"], extra: ",\n  \"pluginDirectories\": [\"plugins.d\"]"),
                                  files: ["prices.json": samplePrices, "plugins.d/README": "drop plugins here"])
        defer { sandbox.remove() }
        // Dropped once the first tick is out (waited for, at most 10 s), before the next.
        let result = try bash("""
            "$PRICEHOST" watch --config "$CONFIG" --asset BTC --provider ctest --interval 1 --ticks 3 > out.jsonl &
            watcher=$!
            \(Self.waitForLines(1, in: "out.jsonl"))
            cp '\(plugin)' plugins.d/.libCTest.tmp; mv plugins.d/.libCTest.tmp plugins.d/libCTest.so
            wait $watcher
            status=$?
            cat out.jsonl
            exit $status
            """, in: sandbox)
        #expect(result.status == 0, "\(result)")
        #expect(result.outputLines.first?.contains(#""error":"unknown provider 'ctest' (from --provider); loaded providers: file""#) == true, "\(result)")
        #expect(result.withoutAges.outputLines.last == #"{"asset":"BTC","currency":"USD","amount":"100.25","provider":"ctest","timestamp":"2025-11-20T12:00:00Z","status":"live"}"#)
    }

    @Test func sigtermStopsItCleanlyWithStatusZero() throws {
        let sandbox = try Sandbox(config: configJSON(plugins: ["libFileProvider.so"]), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let result = try bash("""
            "$PRICEHOST" watch --config "$CONFIG" --asset BTC --interval 30 > out.jsonl &
            watcher=$!
            \(Self.waitForLines(1, in: "out.jsonl"))
            kill -TERM $watcher
            wait $watcher
            echo "status $?"
            cat out.jsonl
            """, in: sandbox)
        #expect(result.withoutAges.outputLines == [
            "status 0",
            #"{"asset":"BTC","currency":"USD","amount":"91234.56","provider":"file","timestamp":"2026-11-20T12:00:00Z","status":"live"}"#,
        ], "\(result)")
    }

    @Test func cacheCutsServerHits() throws {
        let server = try LoopbackHTTPServer { _, _ in .init(body: CoinbaseTests.spot("BTC", "USD", "1")) }
        defer { server.stop() }
        let config = """
            {"plugins": ["libCoinbaseProvider.so"],
             "providers": {"coinbase": {"baseURL": "\(server.baseURL)", "cacheSeconds": 600}},
             "defaults": {"provider": "coinbase"}}
            """
        let sandbox = try Sandbox(config: config)
        defer { sandbox.remove() }
        let result = try sandbox.run(["watch", "--asset", "BTC", "--interval", "1", "--ticks", "3", "--format", "csv"])
        #expect(result.status == 0, "\(result)")
        #expect(result.outputLines.count == 4)
        #expect(server.requestCount(path: "/v2/prices/BTC-USD/spot") == 1)
    }

    @Test func subSecondIntervalTicksAtThatPace() throws {
        let sandbox = try Sandbox(config: configJSON(plugins: ["libFileProvider.so"]), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let start = ContinuousClock.now
        let result = try sandbox.run(["watch", "--asset", "BTC", "--interval", "0.1", "--ticks", "5", "--format", "csv"])
        let elapsed = ContinuousClock.now - start
        #expect(result.status == 0, "\(result)")
        #expect(result.outputLines.count == 6, "\(result)")
        // Four sleeps of 0.09 s at the least between five ticks; only a lower bound, so a slow machine cannot fail it.
        #expect(elapsed >= .milliseconds(360), "\(elapsed)")
    }

    /// A plugin named by a path through a symbolic link is the plugin loaded at
    /// start, not a new one on every tick (it once was: a duplicate-provider
    /// warning each tick, and memory that grew with them).
    @Test func pluginPathThroughASymlinkIsNotReloadedEachTick() throws {
        let sandbox = try Sandbox(config: "{}", files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let real = sandbox.directory.file("real")
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: BuiltProducts.plugin("libFileProvider.so"), toPath: real + "/libFileProvider.so")
        try FileManager.default.createSymbolicLink(atPath: sandbox.directory.file("linked"), withDestinationPath: real)
        try sandbox.directory.write(configJSON(plugins: [sandbox.directory.file("linked/libFileProvider.so")]), to: "plugins.json")
        let result = try sandbox.run(["watch", "--asset", "BTC", "--interval", "0.1", "--ticks", "4", "--format", "csv"])
        #expect(result.status == 0, "\(result)")
        #expect(result.outputLines.count == 5, "\(result)")
        #expect(result.standardError == "", "\(result)")
    }
}
