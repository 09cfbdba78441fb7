import Foundation
@testable import PriceHost
import PriceHostCore
import PriceHostStore
import PriceHostTesting
import Testing

/// `history`'s command line: which question the options ask (``HistoryQuery``), and every refusal, naming the option.
/// HistoryRunTests run the built binary against a store.
struct HistoryCommandTests {
    static func query(_ arguments: [String]) throws -> HistoryQuery? {
        try InvocationTests.parse(["history"] + arguments, as: HistoryCommand.self)?.query
    }

    @Test func theOptionsAskForCandlesThePriceAtATimeOrATWAP() throws {
        let candles = try #require(try Self.query(["--asset", "btc", "--provider", "coinbase", "--interval", "15m",
                                                   "--from", "2026-11-27T12:00:00Z", "--to=2026-11-27T13:00:00Z", "--fill", "previous"]))
        #expect(candles.kind == .candles)
        #expect(candles.asset == "BTC" && candles.origin == .provider("coinbase") && candles.interval == .fifteenMinutes)
        #expect(candles.from == 1_795_780_800_000 && candles.to == 1_795_784_400_000 && candles.fillPrevious)

        let price = try #require(try Self.query(["--asset", "ETH", "--at", "2026-11-27T12:00:00.250Z", "--aggregate", "median", "--currency", "eur"]))
        #expect(price.kind == .price && price.at == 1_795_780_800_250 && price.origin == .median && price.currency == "EUR")

        let twap = try #require(try Self.query(["--asset", "BTC", "--twap", "1h"]))
        #expect(twap.kind == .twap && twap.window == 3_600_000 && twap.windowText == "1h" && twap.at == nil)
        #expect(try Self.query(["--asset", "BTC", "--twap", "90s", "--at", "2026-11-27T12:00:00Z"])?.at == 1_795_780_800_000)
        #expect(try InvocationTests.parse(["history", "--asset", "BTC"], as: HistoryCommand.self)?.format == .text)
    }

    @Test(arguments: [
        (["history"], "history needs --asset CODE"),
        (["history", "--asset", "B/C"], #"--asset "B/C" is not an asset code (2 to 10 letters or digits)"#),
        (["history", "--asset", "BTC,ETH"], "history takes one --asset, not a list ('BTC,ETH')"),
        (["history", "--asset", "BTC", "--asset", "ETH"], "option --asset is given twice"),
        (["history", "--asset", "BTC", "--currency", "$"], #"--currency "$" is not a currency code (2 to 10 letters or digits)"#),
        (["history", "--asset", "BTC", "--interval", "2m"], #"--interval: unknown interval "2m"; expected 1m, 5m, 15m, 1h, 4h or 1d"#),
        (["history", "--asset", "BTC", "--from", "2026-11-27T13:00:00Z", "--to", "2026-11-27T12:00:00Z"],
         "--from (2026-11-27T13:00:00Z) is after to (2026-11-27T12:00:00Z)"),
        (["history", "--asset", "BTC", "--from", "27/11/2026"], #"--from must be an ISO 8601 time such as 2026-11-27T12:00:00Z, not "27/11/2026""#),
        (["history", "--asset", "BTC", "--to", "now"], #"--to must be an ISO 8601 time such as 2026-11-27T12:00:00Z, not "now""#),
        (["history", "--asset", "BTC", "--at", "yesterday"], #"--at must be an ISO 8601 time such as 2026-11-27T12:00:00Z, not "yesterday""#),
        (["history", "--asset", "BTC", "--twap", "1 hour"], #"--twap must be a duration such as 90s, 15m, 1h or 7d, not "1 hour""#),
        (["history", "--asset", "BTC", "--twap", "3651d"], #"--twap must be a duration such as 90s, 15m, 1h or 7d, not "3651d""#),
        (["history", "--asset", "BTC", "--provider", "Coinbase"], #"--provider "Coinbase" is not a provider name (provider names are 1 to 32 lower-case letters, digits or '-'); name one"#),
        (["history", "--asset", "BTC", "--aggregate", "mean"], #"--aggregate takes median, not "mean""#),
        (["history", "--asset", "BTC", "--provider", "file", "--aggregate", "median"], "history takes --provider or --aggregate median, not both"),
        (["history", "--asset", "BTC", "--fill", "zero"], #"--fill takes previous, not "zero""#),
        (["history", "--asset", "BTC", "--at", "2026-11-27T12:00:00Z", "--interval", "5m"], "--interval is for candles; it does not go with --at"),
        (["history", "--asset", "BTC", "--twap", "1h", "--from", "2026-11-27T12:00:00Z"], "--from is for candles; it does not go with --twap"),
        (["history", "--asset", "BTC", "--format", "yaml"], "--format must be text, json or csv, not 'yaml'"),
        (["history", "--asset", "BTC", "--allow-insecure-plugins"], "option --allow-insecure-plugins does not apply to 'history'"),
        (["history", "--asset", "BTC", "--record"], "option --record does not apply to 'history'"),
        (["fetch", "--asset", "BTC", "--twap", "1h"], "option --twap does not apply to 'fetch'"),
    ])
    func badOptionsAreUsageErrorsNamingTheOption(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try Invocation.parse(arguments) }
    }

    /// What the store says at run time of a parameter (a 400) names the option too.
    @Test func aMessageOfTheStoreNamesTheOptionForItsParameter() {
        #expect(HistoryCommand.usageError("at (2026-11-01T00:00:00Z) is older than the store keeps quotes (rawRetentionDays: 7)", parameter: "at")
            == UsageError("--at (2026-11-01T00:00:00Z) is older than the store keeps quotes (rawRetentionDays: 7)"))
        #expect(HistoryCommand.usageError("the window 8d before 2026-11-27T12:00:00Z reaches past what the store keeps (rawRetentionDays: 7)", parameter: "window")
            == UsageError("--twap: the window 8d before 2026-11-27T12:00:00Z reaches past what the store keeps (rawRetentionDays: 7)"))
        // A word that only begins with the parameter's name is no mention of it.
        #expect(HistoryCommand.usageError("atoms", parameter: "at") == UsageError("--at: atoms"))
    }

    /// Without `--at` or `--to`, "now" is the command's clock's: a test sets it.
    @Test func nowIsTheCommandsClock() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let noon: Int64 = 1_795_780_800_000
        let clock = TestClock(wallNow: Date(timeIntervalSince1970: Double(noon + 61_000) / 1000))
        let store = try QuoteStore.open(StoreSettings(path: directory.file("quotes.db")), diagnostics: Diagnostics(threshold: .error), clock: clock)
        for (amount, offset) in [("100", Int64(1_000)), ("110", 31_000)] {
            store.record(StoredQuote(series: SeriesKey(asset: "BTC", currency: "USD", origin: .provider("file")), amount: amount,
                                     timestamp: noon + offset, receivedAt: noon + offset, source: .rest))
        }
        store.close()
        let config = try directory.write(#"{"plugins": [], "defaults": {"provider": "file"}, "store": {"url": "sqlite:quotes.db"}}"#, to: "plugins.json")

        func run(_ arguments: [String]) throws -> (PriceHost.ExitStatus, [String]) {
            let command = try #require(try InvocationTests.parse(["history"] + arguments + ["--config", config], as: HistoryCommand.self))
            let lines = LockedBox<[String]>([])
            let context = CommandContext(environment: [:], output: { line in lines.update { $0.append(line) } },
                                         diagnostics: Diagnostics(threshold: .error), clock: clock)
            return (command.run(in: context), lines.get())
        }
        // (noon+1s, noon+61s]: 100 for 30 s, then 110 for 30 s.
        let twap = try run(["--asset", "BTC", "--twap", "1m", "--format", "csv"])
        #expect(twap.0 == .success && twap.1 == ["asset,currency,provider,amount,count,coverage,window,at", "BTC,USD,file,105,1,1,1m,2026-11-27T12:01:01Z"])
        let candles = try run(["--asset", "BTC", "--format", "csv"])
        #expect(candles.0 == .success && candles.1 == ["start,open,high,low,close,count", "2026-11-27T12:00:00Z,100,110,100,110,2"])
        // (noon-29s, noon+31s]: nothing before noon+1s (left out), 100 for 30 s; 110 began at the end and held for no time.
        let halfCovered = try run(["--asset", "BTC", "--twap", "1m", "--at", "2026-11-27T12:00:31Z", "--format", "csv"])
        #expect(halfCovered.0 == .success && halfCovered.1.last == "BTC,USD,file,100,2,0.5,1m,2026-11-27T12:00:31Z")
    }
}
