import Foundation
import PriceHostCore
import PriceHostStore
import PriceHostTestTraits
import PriceHostTesting
import Testing

/// `pricehost history`, the built binary, against a store of known quotes written here with `PriceHostStore`: each
/// format of each question, and each failure with its line and exit status. The quotes are in the hour before the
/// last full one, so that every time asked is within the store's raw retention whenever the test runs.
@Suite(.offThePool, .timeLimit(.minutes(2)))
struct HistoryRunTests {
    /// A config in a directory of its own, and `XDG_STATE_HOME` beside it: the default store is `state/pricehost/quotes.db`.
    struct Fixture {
        let directory: TemporaryDirectory
        /// The start of the hour before the last full one, in Unix milliseconds: the first candle's start.
        let base: Int64

        init(config: String = #"{"plugins": [], "defaults": {"provider": "file", "currency": "USD"}}"#) throws {
            directory = try TemporaryDirectory()
            try directory.write(config, to: "plugins.json")
            let hour: Int64 = 3_600_000
            base = HistoryQuery.milliseconds(Date()) / hour * hour - hour
        }

        var statePath: String { directory.file("state") }
        var defaultStore: String { statePath + "/pricehost/quotes.db" }

        /// `base` + `offset` milliseconds, as ISO 8601.
        func time(_ offset: Int64) -> String { HistoryQuery.format(base + offset) }

        /// Writes `quotes` (amount, milliseconds after `base`) of BTC-USD from `origin` to the store at `path`.
        func record(_ quotes: [(String, Int64)], origin: QuoteOrigin = .provider("file"), at path: String? = nil) throws {
            let store = try QuoteStore.open(StoreSettings(path: path ?? defaultStore), diagnostics: Diagnostics(threshold: .error))
            defer { store.close() }
            for (amount, offset) in quotes {
                store.record(StoredQuote(series: SeriesKey(asset: "BTC", currency: "USD", origin: origin), amount: amount,
                                         timestamp: base + offset, receivedAt: base + offset + 5, source: .stream))
            }
            store.flush()
        }

        /// The quotes the candles below are made of: three in the first minute, one in the second, one in the fourth.
        func recordTheMinutes() throws {
            try record([("100", 1_000), ("105.5", 20_000), ("99.25", 40_000), ("101", 70_000), ("103", 200_000)])
        }

        /// `pricehost history ARGUMENTS --config plugins.json`, with `XDG_STATE_HOME` in the directory.
        func history(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
            try CommandRunner.run(BuiltProducts.pricehost, ["history"] + arguments + ["--config", directory.file("plugins.json")],
                                  environment: ["XDG_STATE_HOME": statePath].merging(environment) { $1 },
                                  currentDirectory: directory.path, timeout: 30)
        }

        func remove() { directory.remove() }
    }

    static func success(_ output: String) -> CommandResult { CommandResult(status: 0, standardOutput: output, standardError: "") }
    static func failure(_ status: Int32, _ line: String) -> CommandResult {
        CommandResult(status: status, standardOutput: "", standardError: "pricehost: error: \(line)\n")
    }

    @Test func candlesInTheThreeFormatsFromTheDefaultStore() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.recordTheMinutes()
        let window = ["--asset", "BTC", "--from", fixture.time(0), "--to", fixture.time(300_000)]
        #expect(try fixture.history(window + ["--format", "csv"]) == Self.success("""
            start,open,high,low,close,count
            \(fixture.time(0)),100,105.5,99.25,99.25,3
            \(fixture.time(60_000)),101,101,101,101,1
            \(fixture.time(180_000)),103,103,103,103,1

            """))
        #expect(try fixture.history(window + ["--format", "json"]) == Self.success("""
            [{"start":"\(fixture.time(0))","open":"100","high":"105.5","low":"99.25","close":"99.25","count":3},\
            {"start":"\(fixture.time(60_000))","open":"101","high":"101","low":"101","close":"101","count":1},\
            {"start":"\(fixture.time(180_000))","open":"103","high":"103","low":"103","close":"103","count":1}]

            """))
        #expect(try fixture.history(window) == Self.success("""
            start                 open  high   low    close  count
            \(fixture.time(0))  100   105.5  99.25  99.25  3
            \(fixture.time(60_000))  101   101    101    101    1
            \(fixture.time(180_000))  103   103    103    103    1

            """))
    }

    @Test func longerIntervalsAndFillPrevious() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.recordTheMinutes()
        #expect(try fixture.history(["--asset", "BTC", "--interval", "5m", "--from", fixture.time(0), "--to", fixture.time(600_000), "--format", "csv"])
            == Self.success("start,open,high,low,close,count\n\(fixture.time(0)),100,105.5,99.25,103,5\n"))
        // From the first real candle (none before --from), the previous close carried into each empty minute up to --to.
        #expect(try fixture.history(["--asset", "BTC", "--from", fixture.time(-120_000), "--to", fixture.time(300_000), "--fill", "previous",
                                     "--format", "csv"]) == Self.success("""
            start,open,high,low,close,count
            \(fixture.time(0)),100,105.5,99.25,99.25,3
            \(fixture.time(60_000)),101,101,101,101,1
            \(fixture.time(120_000)),101,101,101,101,0
            \(fixture.time(180_000)),103,103,103,103,1
            \(fixture.time(240_000)),103,103,103,103,0
            \(fixture.time(300_000)),103,103,103,103,0

            """))
    }

    @Test func thePriceAtATimeInTheThreeFormats() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.recordTheMinutes()
        let at = ["--asset", "BTC", "--at", fixture.time(30_000)]
        #expect(try fixture.history(at + ["--format", "json"]) == Self.success("""
            {"asset":"BTC","currency":"USD","amount":"105.5","provider":"file","timestamp":"\(fixture.time(20_000))",\
            "at":"\(fixture.time(30_000))","ageMs":10000}

            """))
        #expect(try fixture.history(at + ["--format", "csv"]) == Self.success("""
            asset,currency,amount,provider,timestamp,at,ageMs
            BTC,USD,105.5,file,\(fixture.time(20_000)),\(fixture.time(30_000)),10000

            """))
        #expect(try fixture.history(at) == Self.success("BTC-USD  105.5  file  \(fixture.time(20_000))  10 s before \(fixture.time(30_000))\n"))
    }

    @Test func aTimeWeightedAverageInTheThreeFormats() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.recordTheMinutes()
        // (base+1s, base+61s]: 100 for 19 s (carried in), 105.5 for 20 s, 99.25 for 21 s: 6094.25 / 60, to 12 places.
        let twap = ["--asset", "BTC", "--twap", "1m", "--at", fixture.time(61_000)]
        #expect(try fixture.history(twap + ["--format", "json"]) == Self.success("""
            {"asset":"BTC","currency":"USD","provider":"file","amount":"101.570833333333","count":2,"coverage":"1","window":"1m",\
            "at":"\(fixture.time(61_000))"}

            """))
        #expect(try fixture.history(twap + ["--format", "csv"]) == Self.success("""
            asset,currency,provider,amount,count,coverage,window,at
            BTC,USD,file,101.570833333333,2,1,1m,\(fixture.time(61_000))

            """))
        #expect(try fixture.history(twap) == Self.success(
            "BTC-USD  101.570833333333  file  TWAP over the 1m to \(fixture.time(61_000))  2 quotes  coverage 1\n"))
    }

    @Test func theMediansAreASeriesOfTheirOwn() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.recordTheMinutes()
        try fixture.record([("100.5", 5_000)], origin: .median)
        #expect(try fixture.history(["--asset", "BTC", "--aggregate", "median", "--from", fixture.time(0), "--to", fixture.time(60_000),
                                     "--format", "csv"]) == Self.success("start,open,high,low,close,count\n\(fixture.time(0)),100.5,100.5,100.5,100.5,1\n"))
        #expect(try fixture.history(["--asset", "BTC", "--provider", "file", "--at", fixture.time(5_000), "--format", "csv"])
            == Self.success("asset,currency,amount,provider,timestamp,at,ageMs\nBTC,USD,100,file,\(fixture.time(1_000)),\(fixture.time(5_000)),4000\n"))
    }

    @Test func theConfigsStoreURLIsRelativeToTheConfigFile() throws {
        let fixture = try Fixture(config: #"{"plugins": [], "defaults": {"provider": "file"}, "store": {"url": "sqlite:data/q.db"}}"#)
        defer { fixture.remove() }
        try fixture.record([("42", 1_000)], at: fixture.directory.file("data/q.db"))
        #expect(try fixture.history(["--asset", "BTC", "--at", fixture.time(2_000), "--format", "csv"])
            == Self.success("asset,currency,amount,provider,timestamp,at,ageMs\nBTC,USD,42,file,\(fixture.time(1_000)),\(fixture.time(2_000)),1000\n"))
        #expect(!FileManager.default.fileExists(atPath: fixture.statePath))
    }

    @Test func badInputIsAUsageErrorNamingTheOption() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.recordTheMinutes()
        #expect(try fixture.history(["--asset", "BTC", "--interval", "2m"])
            == Self.failure(2, #"--interval: unknown interval "2m"; expected 1m, 5m, 15m, 1h, 4h or 1d"#))
        #expect(try fixture.history(["--asset", "BTC", "--from", fixture.time(60_000), "--to", fixture.time(0)])
            == Self.failure(2, "--from (\(fixture.time(60_000))) is after to (\(fixture.time(0)))"))
        #expect(try fixture.history(["--asset", "BTC", "--at", "2026-11-27 12:00"])
            == Self.failure(2, #"--at must be an ISO 8601 time such as 2026-11-27T12:00:00Z, not "2026-11-27 12:00""#))
        #expect(try fixture.history(["--asset", "BTC", "--twap", "8d", "--at", fixture.time(0)])
            == Self.failure(2, "--twap: the window 8d before \(fixture.time(0)) reaches past what the store keeps (rawRetentionDays: 7)"))
        #expect(try fixture.history(["--asset", "BTC", "--at", fixture.time(-8 * 86_400_000)])
            == Self.failure(2, "--at (\(fixture.time(-8 * 86_400_000))) is older than the store keeps quotes (rawRetentionDays: 7)"))
        #expect(try fixture.history(["--asset", "BTC!"]) == Self.failure(2, #"--asset "BTC!" is not an asset code (2 to 10 letters or digits)"#))
        #expect(try fixture.history(["--asset", "BTC", "--provider", "file", "--aggregate", "median"])
            == Self.failure(2, "history takes --provider or --aggregate median, not both"))
        // A close before --from, carried into every minute up to --to: 10,002 one-minute candles, more than one answer holds.
        try fixture.record([("90", -10_002 * 60_000)])
        #expect(try fixture.history(["--asset", "BTC", "--from", fixture.time(-10_001 * 60_000), "--to", fixture.time(0), "--fill", "previous"])
            == Self.failure(2, "--from: the answer would hold more than 10000 candles; narrow from and to, or ask a longer interval"))
    }

    @Test func noPriceIsOneLineAndStatusOne() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.recordTheMinutes()
        #expect(try fixture.history(["--asset", "BTC", "--at", fixture.time(0)])
            == Self.failure(1, "no price of BTC-USD from file at or before \(fixture.time(0))"))
        // The last quote, at base+200s, is an hour and a second old: older than the default maxAgeSeconds.
        #expect(try fixture.history(["--asset", "BTC", "--at", fixture.time(3_801_000)])
            == Self.failure(1, "no price of BTC-USD from file at \(fixture.time(3_801_000)): the last one, at \(fixture.time(200_000)), was 1 h 1 s old, older than 3600 s"))
        #expect(try fixture.history(["--asset", "ETH", "--at", fixture.time(0)]) == Self.failure(1, "the store holds no quotes of ETH-USD"))
        // Candles: an empty answer is no failure.
        #expect(try fixture.history(["--asset", "BTC", "--from", fixture.time(-600_000), "--to", fixture.time(-60_000), "--format", "json"])
            == Self.success("[]\n"))
    }

    @Test func noStoreFileIsSaidAndNothingIsMade() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        #expect(try fixture.history(["--asset", "BTC"])
            == Self.failure(1, "no quote store at \(fixture.defaultStore) (serve or watch --record make it)"))
        #expect(!FileManager.default.fileExists(atPath: fixture.statePath))
        // Without XDG_STATE_HOME, under HOME (the runner's HOME is the directory).
        let home = try CommandRunner.run(BuiltProducts.pricehost, ["history", "--asset", "BTC", "--config", fixture.directory.file("plugins.json")],
                                         currentDirectory: fixture.directory.path, timeout: 30)
        #expect(home == Self.failure(1, "no quote store at \(fixture.directory.path)/.local/state/pricehost/quotes.db (serve or watch --record make it)"))
        #expect(!FileManager.default.fileExists(atPath: fixture.directory.file(".local")))
        // A directory where the file would be: no store can be there (serve refuses the path too).
        try FileManager.default.createDirectory(atPath: fixture.defaultStore, withIntermediateDirectories: true)
        #expect(try fixture.history(["--asset", "BTC"])
            == Self.failure(3, "history: cannot read the quote store \(fixture.defaultStore): it is a directory, not a file"))
        try FileManager.default.removeItem(atPath: fixture.defaultStore)
        // An empty file is no store either.
        try fixture.directory.write("", to: "state/pricehost/quotes.db")
        #expect(try fixture.history(["--asset", "BTC"])
            == Self.failure(1, "no quote store at \(fixture.defaultStore) (serve or watch --record make it)"))
    }

    @Test func aStoreTurnedOffOrUnreadableOrWithoutSQLiteIsOneLine() throws {
        let off = try Fixture(config: #"{"plugins": [], "store": {"enabled": false}}"#)
        defer { off.remove() }
        #expect(try off.history(["--asset", "BTC"]) == Self.failure(2,
            #"history: the quote store is off ("store": {"enabled": false} in \#(off.directory.file("plugins.json"))); turn it on to keep and read quotes"#))

        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.directory.write(String(repeating: "not a database\n", count: 100), to: "state/pricehost/quotes.db")
        #expect(try fixture.history(["--asset", "BTC"]) == Self.failure(1,
            "the quote store \(fixture.defaultStore) cannot be read: the file is not an SQLite database (file is not a database)"))

        let missing = try fixture.history(["--asset", "BTC"], environment: ["PRICEHOST_LIBSQLITE": "/nonexistent/libsqlite3.so.0"])
        #expect(missing.status == 3, "\(missing)")
        #expect(missing.errorLines.count == 1 && missing.standardError.hasPrefix("pricehost: error: history: cannot load /nonexistent/libsqlite3.so.0"), "\(missing)")
    }
}
