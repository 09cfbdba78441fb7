import Foundation
import PriceHostCore
@testable import PriceHostStore
import PriceHostTestTraits
import PriceHostTesting
import Testing

/// The store on a throwaway PostgreSQL (one server for the suite, a database per test): the same answers as SQLite,
/// each quote stored once, the layout migrated or refused, and a server that cannot be had said in one line.
/// Skips, saying why, without PostgreSQL's server (`apt-get install -y postgresql`).
@Suite(.offThePool) struct PostgresStoreTests {
    static let noon = QuoteStoreTests.noon
    static let btc = QuoteStoreTests.btc
    static let median = SeriesKey(asset: "BTC", currency: "USD", origin: .median)
    static let beta = SeriesKey(asset: "BTC", currency: "USD", origin: .provider("beta"))

    /// The warnings a store said, and the store.
    final class Lines: Sendable {
        let lines = LockedBox<[String]>([])
        var diagnostics: Diagnostics { Diagnostics(threshold: .warning) { [lines] line in lines.update { $0.append(line) } } }
        var all: [String] { lines.get() }
    }

    static func server() throws -> PostgresServer? {
        switch PostgresServer.shared {
        case .success(let server): return server
        case .failure(let error):
            print("PostgresStoreTests: \(error)")
            return nil
        }
    }

    static func open(_ url: String, lines: Lines = Lines(), now: Int64 = noon + 3_600_000) throws -> QuoteStore {
        try QuoteStore.open(StoreSettings(location: .postgres(try PostgresURL(url))), diagnostics: lines.diagnostics,
                            clock: TestClock(wallNow: Date(timeIntervalSince1970: Double(now) / 1000)))
    }

    /// Quotes over two days (two partitions), with gaps, two at one time, a median, and one that came late.
    static let quotes: [StoredQuote] = [
        QuoteStoreTests.quote("100", at: 1_000), QuoteStoreTests.quote("105.5", at: 20_000), QuoteStoreTests.quote("99.25", at: 40_000),
        QuoteStoreTests.quote("101", at: 70_000), QuoteStoreTests.quote("103", at: 200_000), QuoteStoreTests.quote("102.75", at: 200_000, received: 9),
        QuoteStoreTests.quote("104", at: 200_000, received: 9, source: .rest), QuoteStoreTests.quote("0.000000001", at: 900_000),
        QuoteStoreTests.quote("64000.123456789012345678", at: 86_400_000 - 60_000), QuoteStoreTests.quote("64001", at: 86_400_000 + 5_000),
        QuoteStoreTests.quote("101", at: 30_000, series: median), QuoteStoreTests.quote("102", at: 90_000, series: median),
        QuoteStoreTests.quote("7", at: 10_000, series: beta),
    ]
    static let late = QuoteStoreTests.quote("98", at: 500, received: 150_000)

    /// Everything the store answers for `quotes`, as text: candles of every interval (filled and not), prices, TWAPs, history.
    static func answers(_ store: QuoteStore) throws -> [String] {
        var answers: [String] = []
        let now = noon + 2 * 86_400_000
        for series in [btc, median, beta] {
            for interval in CandleInterval.allCases {
                for fill in [false, true] {
                    answers.append("\(series) \(interval) \(fill): " + String(describing: try store.candles(
                        series, interval: interval, from: noon - 3_600_000, to: noon + 86_400_000 + 600_000, fillPrevious: fill, now: now, limit: 5_000)))
                }
            }
            for offset in [-1, 0, 999, 1_000, 20_000, 200_000, 200_001, 86_400_000, 90_000_000] as [Int64] {
                answers.append("\(series) at \(offset): " + String(describing: try store.quote(series, atOrBefore: noon + offset)))
            }
            for window in [60_000, 3_600_000, 86_400_000] as [Int64] {
                answers.append("\(series) twap \(window): " + String(describing: try store.timeWeightedAverage(series, window: window, at: noon + 300_000)))
            }
        }
        answers.append("origins: \(try store.origins(asset: "BTC", currency: "USD"))")
        answers.append("points: \(try store.points(asset: "BTC", currency: "USD", providers: nil, since: noon - 60_000))")
        return answers
    }

    static func write(_ quotes: [StoredQuote], late: StoredQuote?, to store: QuoteStore) {
        for quote in quotes { store.record(quote) }
        store.flush()
        if let late {
            store.record(late)
            store.flush()
        }
    }

    @Test func theAnswersAreTheSQLiteBackendsToTheByte() throws {
        guard let server = try Self.server() else { return }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let sqlite = try QuoteStoreTests.open(directory)
        defer { sqlite.close() }
        let lines = Lines()
        let url = server.url(database: try server.makeDatabase())
        let postgres = try Self.open(url, lines: lines)
        defer { postgres.close() }
        Self.write(Self.quotes, late: Self.late, to: sqlite)
        Self.write(Self.quotes, late: Self.late, to: postgres)
        #expect(postgres.currentStatus == .ok)
        #expect(lines.all == [])
        let expected = try Self.answers(sqlite)
        let got = try Self.answers(postgres)
        #expect(got.count == expected.count)
        for (left, right) in zip(got, expected) { #expect(left == right) }
        // Another process reading the same database (`pricehost history`, another instance) answers the same.
        let reader = try QuoteStore.openForReading(StoreSettings(location: .postgres(try PostgresURL(url))))
        #expect(try Self.answers(reader) == got)
        // The quotes' two days are two partitions of each partitioned table.
        let database = try #require(postgres.settings.location.description.split(separator: "/").last.map(String.init))
        let partitions = try server.psql("SELECT count(*) FROM pg_inherits WHERE inhparent IN ('pricehost_quotes'::regclass, 'pricehost_candles_1m'::regclass)",
                                         database: database)
        #expect(partitions == "4")
    }

    @Test func aQuoteWrittenTwiceIsStoredAndCountedOnce() throws {
        guard let server = try Self.server() else { return }
        let database = try server.makeDatabase()
        let store = try Self.open(server.url(database: database))
        defer { store.close() }
        Self.write(Self.quotes, late: nil, to: store)
        let once = try Self.answers(store)
        // The same quotes again, as a batch retried, a fleet's other instance or a REST fallback would write them: later
        // received, by the other source, and in one batch twice.
        let again = Self.quotes.map { quote in
            var quote = quote
            quote.receivedAt += 1_000
            quote.source = quote.source == .stream ? .rest : .stream
            return quote
        }
        Self.write(again + again, late: nil, to: store)
        #expect(try Self.answers(store) == once)
        #expect(try server.psql("SELECT count(*) FROM pricehost_quotes", database: database) == String(Self.quotes.count))
    }

    /// A batch of new quotes goes in by COPY; one that also holds quotes the table has fails that COPY, and its new
    /// quotes still land (through INSERT … ON CONFLICT), each counted once in the candles.
    @Test func aBatchMixingKeptAndNewQuotesKeepsTheNewOnesOnce() throws {
        guard let server = try Self.server() else { return }
        let whole = try Self.open(server.url(database: try server.makeDatabase()))
        defer { whole.close() }
        Self.write(Self.quotes, late: nil, to: whole)
        let database = try server.makeDatabase()
        let mixed = try Self.open(server.url(database: database))
        defer { mixed.close() }
        Self.write(Array(Self.quotes.prefix(6)), late: nil, to: mixed)
        Self.write(Self.quotes, late: nil, to: mixed)
        #expect(try Self.answers(mixed) == (try Self.answers(whole)))
        #expect(try server.psql("SELECT count(*) FROM pricehost_quotes", database: database) == String(Self.quotes.count))
        #expect(mixed.currentStatus == .ok)
    }

    @Test func anOlderLayoutIsMigratedOnStartInOneTransaction() throws {
        guard let server = try Self.server() else { return }
        let database = try server.makeDatabase()
        // Version 1 by hand, as an older pricehost left it: every interval's candles in one table.
        let v1 = try #require(PostgresSchema.migrations.first { $0.version == 1 }).sql
        try server.psql("SET ROLE pricehost; \(v1) CREATE TABLE pricehost_store_meta(version integer NOT NULL); INSERT INTO pricehost_store_meta VALUES (1);"
                        + " INSERT INTO pricehost_series(id, asset, currency, origin) VALUES (1, 'BTC', 'USD', 'alpha');"
                        + " INSERT INTO pricehost_candles VALUES (1, 1, \(Self.noon / 60_000), '100', '101', '99', '100.5', 3, \(Self.noon), \(Self.noon + 50_000)),"
                        + " (1, 5, \(Self.noon / 60_000), '100', '101', '99', '100.5', 3, \(Self.noon), \(Self.noon + 50_000))",
                        database: database)
        let lines = Lines()
        let store = try Self.open(server.url(database: database), lines: lines)
        defer { store.close() }
        store.record(QuoteStoreTests.quote("102", at: 55_000))
        store.flush()
        #expect(store.currentStatus == .ok)
        #expect(lines.all == [])
        #expect(try server.psql("SELECT version FROM pricehost_store_meta", database: database) == "3")
        let expected = Candle(start: Self.noon, open: "100", high: "102", low: "99", close: "102", count: 4)
        for interval in [CandleInterval.oneMinute, .fiveMinutes] {
            #expect(try store.candles(Self.btc, interval: interval, from: Self.noon, to: Self.noon, fillPrevious: false, now: Self.noon, limit: 10)
                    == .candles([expected]))
        }
        #expect(try server.psql("SELECT count(*) FROM pricehost_candles WHERE span = 1", database: database) == "0")
    }

    @Test func aNewerLayoutIsRefusedInOneLineAndPricesGoOn() throws {
        guard let server = try Self.server() else { return }
        let database = try server.makeDatabase()
        try server.psql("CREATE TABLE pricehost_store_meta(version integer NOT NULL); INSERT INTO pricehost_store_meta VALUES (99);"
                        + " ALTER TABLE pricehost_store_meta OWNER TO pricehost", database: database)
        let lines = Lines()
        let store = try Self.open(server.url(database: database), lines: lines)
        defer { store.close() }
        let reason = "the database postgres://pricehost@127.0.0.1:\(server.port)/\(database) was made by a newer pricehost (store layout 99; this one knows 3); use that pricehost, or another database"
        #expect(store.currentStatus == .degraded(reason))
        #expect(lines.all == ["pricehost: warning: the quote store postgres://pricehost@127.0.0.1:\(server.port)/\(database) cannot be written: \(reason); prices are still served, and quotes are not kept until it can"])
        // Left as it was: nothing migrated, nothing written.
        #expect(try server.psql("SELECT version FROM pricehost_store_meta", database: database) == "99")
        #expect(try server.psql("SELECT count(*) FROM pg_tables WHERE tablename LIKE 'pricehost\\_%'", database: database) == "1")
    }

    /// A wrong password, a database that does not exist, a port nothing listens on, and a server that never answers
    /// (a loopback listener that accepts and says nothing; `connect_timeout=1` in the URL goes to libpq).
    @Test(arguments: ["password", "database", "refused", "silent"])
    func aServerThatCannotBeHadIsSaidInOneLineWithoutThePassword(_ what: String) throws {
        guard let server = try Self.server() else { return }
        let silent = try SilentListener()
        let url = switch what {
        case "password": server.url(database: "postgres", password: "not-the-Pa55word")
        case "database": server.url(database: "no_such_database")
        case "refused": "postgres://pricehost:\(server.password)@127.0.0.1:\(try RedisServer.freePort())/quotes"
        default: "postgres://pricehost:\(server.password)@127.0.0.1:\(silent.port)/quotes?connect_timeout=1"
        }
        let lines = Lines()
        let store = try Self.open(url, lines: lines)
        defer { store.close() }
        store.record(QuoteStoreTests.quote("100", at: 0))
        let expected = switch what {
        case "password": "password authentication failed for user \"pricehost\""
        case "database": "database \"no_such_database\" does not exist"
        case "refused": "Connection refused"
        default: "timeout expired"
        }
        guard case .degraded(let reason) = store.currentStatus else {
            Issue.record("the store is \(store.currentStatus)")
            return
        }
        #expect(reason.contains(expected))
        #expect(lines.all.count == 1)
        #expect(lines.all.first?.contains(expected) == true)
        #expect(lines.all.first?.contains("quotes wait in memory") == true)
        var read = ""
        do {
            _ = try store.quote(Self.btc, atOrBefore: Self.noon)
            Issue.record("a read succeeded without a server")
        } catch {
            read = error.description
        }
        #expect(read.hasPrefix("the quote store postgres://pricehost@127.0.0.1:"))
        for text in lines.all + [reason, read] { #expect(!text.contains(server.password) && !text.contains("not-the-Pa55word")) }
    }

    /// A server that answers nothing (here: the quotes' table locked by another session) fails a read within the
    /// readers' 5 s, naming the store, rather than holding a thread; the write waiting behind it lands once it is free.
    @Test func aReadOfAStuckServerGivesUpWithinItsTimeoutAndTheWriteLandsAfter() throws {
        guard let server = try Self.server() else { return }
        let url = server.url(database: try server.makeDatabase())
        let store = try Self.open(url)
        defer { store.close() }
        store.record(QuoteStoreTests.quote("100", at: 0))
        store.flush()
        let holder = try PostgresConnection(library: try LibPQ.shared.get(), url: try PostgresURL(url), timeout: .seconds(60))
        try holder.execute("BEGIN; LOCK TABLE pricehost_quotes IN ACCESS EXCLUSIVE MODE")
        store.record(QuoteStoreTests.quote("101", at: 1_000))
        let started = Date()
        do {
            _ = try store.quote(Self.btc, atOrBefore: Self.noon + 5_000)
            Issue.record("a read went through a locked table")
        } catch {
            #expect(error.description.hasPrefix("the quote store postgres://pricehost@127.0.0.1:\(server.port)/"))
            #expect(error.description.hasSuffix("cannot be read: the server did not answer within 5.0 seconds"))
        }
        let waited = Date().timeIntervalSince(started)
        #expect(waited >= 4.9 && waited < 8, "the read waited \(waited) s")
        try holder.execute("ROLLBACK")
        store.flush()
        #expect(try store.quote(Self.btc, atOrBefore: Self.noon + 5_000)?.amount == "101")
        #expect(store.currentStatus == .ok)
    }

    @Test func aURLIsReadWithItsPasswordKeptOutOfEveryMessage() throws {
        let url = try PostgresURL("postgresql://app:s3cr%40t-pass@db1.internal:5433,db2.internal/quotes?sslmode=require&password=other")
        #expect(url.redacted == "postgres://app@db1.internal:5433,db2.internal/quotes")
        #expect("\(url)" == url.redacted)
        #expect(url.scrubbed("failed for s3cr%40t-pass") == "failed for ***")
        #expect(throws: PostgresURL.Invalid("expected postgres://USER:PASSWORD@HOST:PORT/DATABASE")) { try PostgresURL("mysql://x") }
        #expect(CivilDay.name(20_419) == "20251127")
        #expect(CivilDay.day(named: "20251127") == 20_419)
        #expect(CivilDay.name(-1) == "19691231")
        #expect(CivilDay.day(named: "19691231") == -1)
    }
}
