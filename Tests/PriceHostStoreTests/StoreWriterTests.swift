import Foundation
import PriceHostCore
@testable import PriceHostStore
import PriceHostTestTraits
import PriceHostTesting
import Testing

/// The writer's candles against amounts its fast comparison cannot read as 18-digit integers: every interval's
/// high and low must still be the exact ones (the writer compares those texts as ``DecimalText`` does).
@Suite(.offThePool) struct StoreWriterTests {
    @Test func highAndLowAreExactForEveryScaleAndLength() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try QuoteStoreTests.open(directory)
        defer { store.close() }
        // Within one minute: other places, more than 18 digits, and one whose scaling to 2 places overflows Int64.
        let amounts = ["100", "100.50", "99.9999999999999999999", "0.05", "12345678901234567890", "999999999999999999",
                       "0.000000000000000001", "100.5", "0.5"]
        for (offset, amount) in amounts.enumerated() { store.record(QuoteStoreTests.quote(amount, at: Int64(offset) * 1_000)) }
        store.flush()
        for interval in [CandleInterval.oneMinute, .oneDay] {
            let answer = try store.candles(QuoteStoreTests.btc, interval: interval, from: QuoteStoreTests.noon - 86_400_000,
                                           to: QuoteStoreTests.noon + 60_000, fillPrevious: false, now: QuoteStoreTests.noon + 60_000, limit: 10)
            guard case .candles(let candles) = answer, let candle = candles.first else {
                Issue.record("\(interval): \(answer)")
                continue
            }
            #expect(candle.high == "12345678901234567890", "\(interval)")
            #expect(candle.low == "0.000000000000000001", "\(interval)")
            #expect(candle.open == "100" && candle.close == "0.5" && candle.count == Int64(amounts.count), "\(interval)")
        }
        // A later batch reads the stored high and low back, and compares with them.
        store.record(QuoteStoreTests.quote("12345678901234567890.1", at: 20_000))
        store.record(QuoteStoreTests.quote("0.0000000000000000005", at: 21_000))
        store.flush()
        let later = try store.candles(QuoteStoreTests.btc, interval: .oneMinute, from: QuoteStoreTests.noon, to: QuoteStoreTests.noon,
                                      fillPrevious: false, now: QuoteStoreTests.noon + 60_000, limit: 10)
        guard case .candles(let candles) = later, let candle = candles.first else {
            Issue.record("\(later)")
            return
        }
        #expect(candle.high == "12345678901234567890.1")
        #expect(candle.low == "0.0000000000000000005")
    }

    @Test func equalAmountsWrittenDifferentlyKeepTheFirst() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try QuoteStoreTests.open(directory)
        defer { store.close() }
        for (offset, amount) in ["100.5", "100.50", "99", "99.000"].enumerated() {
            store.record(QuoteStoreTests.quote(amount, at: Int64(offset) * 1_000))
        }
        store.flush()
        let answer = try store.candles(QuoteStoreTests.btc, interval: .oneMinute, from: QuoteStoreTests.noon, to: QuoteStoreTests.noon,
                                       fillPrevious: false, now: QuoteStoreTests.noon + 60_000, limit: 10)
        // Only a higher amount moves the high, only a lower one the low: the same value in other words does not.
        #expect(answer == .candles([Candle(start: QuoteStoreTests.noon, open: "100.5", high: "100.5", low: "99", close: "99.000", count: 4)]))
    }

    /// The writer checkpoints itself every 5,000 quotes (SQLite's own checkpoint, a 4 MB copy inside a commit every
    /// 1,000 pages, is off): the WAL holds about five batches' pages, reused from its start, and every quote is in the
    /// file. The writer's clock stands still, so only the count of quotes can make a checkpoint due.
    @Test func theWriteAheadLogIsCheckpointedEveryFiveThousandQuotes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let instant = ContinuousClock.now
        let writer = try StoreWriter(library: try LibSQLite.shared.get(), path: directory.file("quotes.db"), now: { instant })
        var largestLog = 0
        // 40 batches of 1,000 quotes (their times 10 ms apart): about 60 KB of WAL frames each, 2.3 MB in all.
        for batch in 0..<40 {
            let quotes = (0..<1_000).map { index in
                QuoteStoreTests.quote("\(64_000 + index % 97).\(index % 10)", at: Int64(batch * 1_000 + index) * 10)
            }
            #expect(try writer.write(quotes) == 1_000)
            largestLog = max(largestLog, Self.size(directory.file("quotes.db-wal")))
        }
        writer.finish()
        // Five batches' frames (292,552 bytes when written); a sixth, or a checkpoint every 10,000 quotes, would pass 350 KB.
        #expect(largestLog > 0 && largestLog < 330_000, "the WAL reached \(largestLog) bytes")
        let store = try QuoteStore.openForReading(StoreSettings(path: directory.file("quotes.db")))
        defer { store.close() }
        let answer = try store.candles(QuoteStoreTests.btc, interval: .oneMinute, from: QuoteStoreTests.noon, to: QuoteStoreTests.noon + 3_600_000,
                                       fillPrevious: false, now: QuoteStoreTests.noon + 3_600_000, limit: 100)
        guard case .candles(let candles) = answer else {
            Issue.record("\(answer)")
            return
        }
        #expect(candles.map(\.count).reduce(0, +) == 40_000)
    }

    static func size(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// Another application's SQLite database at the store's path: refused, and left as it was (no tables added).
    @Test func anotherApplicationsDatabaseIsNotMadeAStore() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let library = try LibSQLite.shared.get()
        try SQLiteConnection(library: library, path: directory.file("quotes.db")).execute("CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES('mine');")
        #expect(throws: SQLiteError(code: SQLiteCode.error, message: "the file is another application's SQLite database (its tables: notes), not a quote store; name another path")) {
            try StoreWriter(library: library, path: directory.file("quotes.db"))
        }
        let reader = try SQLiteConnection(library: library, path: directory.file("quotes.db"), readOnly: true)
        #expect(try reader.text("SELECT group_concat(name) FROM sqlite_schema") == "notes")
        // Not even switched to WAL, which SQLite would keep in the file's header.
        #expect(try reader.text("PRAGMA journal_mode") == "delete")
        #expect(!FileManager.default.fileExists(atPath: directory.file("quotes.db-wal")))
        // An empty file, or one with no tables but SQLite's own, is made a store.
        _ = FileManager.default.createFile(atPath: directory.file("empty.db"), contents: Data())
        let writer = try StoreWriter(library: library, path: directory.file("empty.db"))
        #expect(try writer.write([QuoteStoreTests.quote("100", at: 0)]) == 1)
        let analyzed = try SQLiteConnection(library: library, path: directory.file("analyzed.db"))
        try analyzed.execute("CREATE TABLE t(x); CREATE INDEX i ON t(x); INSERT INTO t VALUES(1); ANALYZE; DROP TABLE t;")
        #expect(try analyzed.text("SELECT group_concat(name) FROM sqlite_schema") == "sqlite_stat1")
        #expect(try StoreWriter(library: library, path: directory.file("analyzed.db")).write([QuoteStoreTests.quote("100", at: 0)]) == 1)
    }
}
