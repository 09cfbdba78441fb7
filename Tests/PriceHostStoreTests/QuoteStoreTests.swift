import Foundation
@testable import PriceHostCore
import PriceHostStore
import PriceHostTestTraits
import PriceHostTesting
import Testing

/// The store against a real SQLite file: what is written comes back as candles, prices and TWAPs.
@Suite(.offThePool) struct QuoteStoreTests {
    /// 2026-11-27T12:00:00Z in Unix milliseconds.
    static let noon: Int64 = 1_795_780_800_000
    static let btc = SeriesKey(asset: "BTC", currency: "USD", origin: .provider("alpha"))

    static func quote(_ amount: String, at offset: Int64, received lag: Int64 = 5, source: QuoteSource = .stream,
                      series: SeriesKey = btc) -> StoredQuote {
        StoredQuote(series: series, amount: amount, timestamp: noon + offset, receivedAt: noon + offset + lag, source: source)
    }

    static func open(_ directory: TemporaryDirectory) throws -> QuoteStore {
        try QuoteStore.open(StoreSettings(path: directory.file("quotes.db")), diagnostics: Diagnostics(threshold: .error),
                            clock: TestClock(wallNow: Date(timeIntervalSince1970: Double(noon) / 1000 + 3_600)))
    }

    @Test func candlesFollowTheVenuesTimeAndALateQuoteLandsInItsOwnMinute() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.open(directory)
        defer { store.close() }
        for quote in [Self.quote("100", at: 1_000), Self.quote("105.5", at: 20_000), Self.quote("99.25", at: 40_000),
                      Self.quote("101", at: 70_000), Self.quote("103", at: 200_000)] { store.record(quote) }
        store.flush()
        // Late: its time is in the first minute, and earlier than the open there.
        store.record(Self.quote("98", at: 500, received: 150_000))
        store.flush()
        let answer = try store.candles(Self.btc, interval: .oneMinute, from: Self.noon, to: Self.noon + 300_000, fillPrevious: false,
                                       now: Self.noon + 300_000, limit: 100)
        #expect(answer == .candles([
            Candle(start: Self.noon, open: "98", high: "105.5", low: "98", close: "99.25", count: 4),
            Candle(start: Self.noon + 60_000, open: "101", high: "101", low: "101", close: "101", count: 1),
            Candle(start: Self.noon + 180_000, open: "103", high: "103", low: "103", close: "103", count: 1),
        ]))
        let filled = try store.candles(Self.btc, interval: .oneMinute, from: Self.noon - 120_000, to: Self.noon + 300_000, fillPrevious: true,
                                       now: Self.noon + 300_000, limit: 100)
        #expect(filled == .candles([
            Candle(start: Self.noon, open: "98", high: "105.5", low: "98", close: "99.25", count: 4),
            Candle(start: Self.noon + 60_000, open: "101", high: "101", low: "101", close: "101", count: 1),
            Candle(start: Self.noon + 120_000, open: "101", high: "101", low: "101", close: "101", count: 0),
            Candle(start: Self.noon + 180_000, open: "103", high: "103", low: "103", close: "103", count: 1),
            Candle(start: Self.noon + 240_000, open: "103", high: "103", low: "103", close: "103", count: 0),
            Candle(start: Self.noon + 300_000, open: "103", high: "103", low: "103", close: "103", count: 0),
        ]))
        let fiveMinutes = try store.candles(Self.btc, interval: .fiveMinutes, from: Self.noon, to: Self.noon + 300_000, fillPrevious: false,
                                            now: Self.noon + 300_000, limit: 100)
        #expect(fiveMinutes == .candles([Candle(start: Self.noon, open: "98", high: "105.5", low: "98", close: "103", count: 6)]))
    }

    @Test func thePriceAtATimeIsTheLastQuoteAtOrBeforeIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.open(directory)
        defer { store.close() }
        for quote in [Self.quote("100", at: 0), Self.quote("101", at: 10_000), Self.quote("102", at: 10_000, received: 9)] { store.record(quote) }
        store.flush()
        #expect(try store.quote(Self.btc, atOrBefore: Self.noon - 1) == nil)
        #expect(try store.quote(Self.btc, atOrBefore: Self.noon)?.amount == "100")
        #expect(try store.quote(Self.btc, atOrBefore: Self.noon + 9_999)?.amount == "100")
        // Two at one time: the one received last.
        #expect(try store.quote(Self.btc, atOrBefore: Self.noon + 10_000)?.amount == "102")
    }

    @Test func aTimeWeightedAverageWeighsEachPriceByHowLongItHeld() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.open(directory)
        defer { store.close() }
        for quote in [Self.quote("100", at: 0), Self.quote("110", at: 30_000), Self.quote("90", at: 45_000)] { store.record(quote) }
        store.flush()
        // (noon, noon+60s]: 100 for 30 s, 110 for 15 s, 90 for 15 s.
        let whole = try #require(try store.timeWeightedAverage(Self.btc, window: 60_000, at: Self.noon + 60_000))
        #expect(whole.amount == "100")
        #expect(whole.count == 2)
        #expect(whole.coverage == "1")
        // Half the window before the first quote: left out.
        let half = try #require(try store.timeWeightedAverage(Self.btc, window: 60_000, at: Self.noon + 30_000))
        #expect(half.amount == "100")
        #expect(half.coverage == "0.5")
        // Both began inside (noon - 30 s, noon + 30 s]; the second held for no time.
        #expect(half.count == 2)
    }

    @Test func aWindowEndingInTheFutureCoversOnlyUpToNow() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.open(directory)
        defer { store.close() }
        for quote in [Self.quote("100", at: 0), Self.quote("110", at: 30_000)] { store.record(quote) }
        store.flush()
        // (noon, noon+60s] asked at noon+45s: 100 for 30 s, 110 for 15 s; the last 15 s have not happened yet.
        let average = try #require(try store.timeWeightedAverage(Self.btc, window: 60_000, at: Self.noon + 60_000, now: Self.noon + 45_000))
        #expect(average.amount == "103.333333333333")
        #expect(average.coverage == "0.75")
        #expect(average.count == 1)
        // A window wholly after now had no price in force.
        #expect(try store.timeWeightedAverage(Self.btc, window: 60_000, at: Self.noon + 120_000, now: Self.noon + 45_000) == nil)
        // Asked through the query, with the store's clock: a window years ahead is no TWAP, not the last price at coverage 1.
        let failure = try #require(try Self.failure(store, [("window", "1h"), ("at", "2030-01-01T00:00:00Z")], kind: .twap, now: Self.noon + 45_000))
        #expect(failure.status == 404)
    }

    /// Why `store` does not answer alpha's BTC with `parameters` at `now`, read as the routes read them; `nil` when it answers.
    static func failure(_ store: QuoteStore, _ parameters: [(name: String, value: String)], kind: HistoryQuery.Kind, now: Int64) throws -> HistoryFailure? {
        let config = try ConfigParser.parse(Array("{}".utf8), path: "/etc/pricehost/plugins.json", environment: [:])
        let query = try HistoryQuery.parse([("asset", "BTC"), ("provider", "alpha")] + parameters, kind: kind)
        guard case .failure(let failure) = store.answer(query, config: config, now: now) else { return nil }
        return failure
    }

    @Test func fromAfterTheDefaultToIsRefusedNamingFrom() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.open(directory)
        defer { store.close() }
        let failure = try #require(try Self.failure(store, [("from", "2027-01-01T00:00:00Z")], kind: .candles, now: Self.noon))
        #expect(failure.status == 400 && failure.parameter == "from")
        #expect(failure.message == "from (2027-01-01T00:00:00Z) is after to (now, 2026-11-27T12:00:00Z, when to is not given)")
    }

    @Test func aTimeFinerThanAMillisecondIsNeverReadAsALaterOne() throws {
        let at = try HistoryQuery.parse([("asset", "BTC"), ("at", "2026-11-27T12:00:29.9999Z")], kind: .price)
        #expect(at.at == Self.noon + 29_999)
        let range = try HistoryQuery.parse([("asset", "BTC"), ("from", "2026-11-27T12:00:00.0001Z"), ("to", "2026-11-27T12:00:59.9999Z")],
                                           kind: .candles)
        #expect(range.from == Self.noon + 1 && range.to == Self.noon + 59_999)
        // Whole milliseconds, read through binary seconds, stay as written.
        let exact = try HistoryQuery.parse([("asset", "BTC"), ("at", "2026-11-27T12:00:02.457Z")], kind: .price)
        #expect(exact.at == Self.noon + 2_457)
        let finer = try HistoryQuery.parse([("asset", "BTC"), ("at", "2026-11-27T12:00:02.4570Z")], kind: .price)
        #expect(finer.at == Self.noon + 2_457)
        // A microsecond before the next millisecond (or second, or day), and one after it; with an offset.
        let micro = try HistoryQuery.parse([("asset", "BTC"), ("from", "2026-11-27T12:00:00.000001Z"), ("to", "2026-11-27T12:00:29.999999Z")],
                                           kind: .candles)
        #expect(micro.from == Self.noon + 1 && micro.to == Self.noon + 29_999)
        let day = try HistoryQuery.parse([("asset", "BTC"), ("at", "2026-11-27T13:59:59.9999999+02:00")], kind: .price)
        #expect(day.at == Self.noon - 1)
    }

    @Test func theMediansAreAskedAsTheAggregateNotAsAProvider() {
        #expect {
            try HistoryQuery.parse([("asset", "BTC"), ("provider", "median")], kind: .candles)
        } throws: { error in
            (error as? HistoryQuery.Problem).map { $0.parameter == "provider" && $0.message == "the medians are asked with aggregate=median, not provider=median" } == true
        }
        #expect((try? HistoryQuery.parse([("asset", "BTC"), ("aggregate", "median")], kind: .candles))?.origin == .median)
    }

    @Test func aFileRemovedWhileOpenIsMadeAnewAndTheNextBatchKeptThere() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.open(directory)
        defer { store.close() }
        store.record(Self.quote("100", at: 0))
        store.flush()
        #expect(try store.quote(Self.btc, atOrBefore: Self.noon)?.amount == "100")
        for suffix in ["", "-wal", "-shm"] { unlink(directory.file("quotes.db") + suffix) }
        store.record(Self.quote("101", at: 1_000))
        store.flush()
        #expect(store.currentStatus == .ok)
        #expect(FileManager.default.fileExists(atPath: directory.file("quotes.db")))
        // The new file holds the batch that waited; the first quote went with the file removed.
        #expect(try store.quote(Self.btc, atOrBefore: Self.noon + 5_000)?.amount == "101")
        #expect(try store.quote(Self.btc, atOrBefore: Self.noon + 500) == nil)
        #expect(store.droppedCount == 0)
    }

    @Test func aFileThatIsNotSQLiteDegradesTheStoreAndSaysWhy() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(String(repeating: "not a database\n", count: 100), to: "quotes.db")
        let store = try Self.open(directory)
        defer { store.close() }
        store.record(Self.quote("100", at: 0))
        store.flush()
        guard case .degraded(let reason) = store.currentStatus else {
            Issue.record("the store is \(store.currentStatus)")
            return
        }
        #expect(reason.contains("not an SQLite database"))
        #expect(store.droppedCount == 1)
    }

    @Test func decimalTextComparesAndRoundsExactly() {
        #expect(DecimalText.compare("10", "9.99") == 1)
        #expect(DecimalText.compare("-1", "0.5") == -1)
        #expect(DecimalText.compare("-2", "-10") == 1)
        #expect(DecimalText.compare("1.50", "1.5") == 0)
        #expect(DecimalText.compare("0.001", "0.0009") == 1)
        #expect(DecimalText.rounded("0.125", places: 2) == "0.12")
        #expect(DecimalText.rounded("0.135", places: 2) == "0.14")
        #expect(DecimalText.rounded("2.5", places: 0) == "2")
        #expect(DecimalText.rounded("9.9996", places: 3) == "10")
        #expect(DecimalText.rounded("-0.004", places: 2) == "0")
        #expect(DecimalText.rounded("0.333333333333333333", places: 6) == "0.333333")
    }
}
