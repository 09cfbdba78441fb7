import Foundation
import PriceHostCore
@testable import PriceHostStore
import PriceHostTestTraits
import PriceHostTesting
import Testing

/// A quote's bid and ask (issue 37) in the store: written and read back exact, NULL when unknown, in SQLite and in
/// PostgreSQL; a file or database of the layout before them is migrated by the writer, its quotes read without them,
/// and read as it is before any writer opened it.
@Suite(.offThePool) struct StoreBidAskTests {
    static let noon = QuoteStoreTests.noon
    static let btc = QuoteStoreTests.btc

    static func quote(_ amount: String, at offset: Int64, bid: String?, ask: String?, source: QuoteSource = .stream) -> StoredQuote {
        var quote = QuoteStoreTests.quote(amount, at: offset, source: source)
        quote.bid = bid
        quote.ask = ask
        return quote
    }

    /// Quotes with both sides, one side, and neither.
    static let quotes = [
        quote("64000.1", at: 1_000, bid: "64000.09", ask: "64000.1"),
        quote("64001.25", at: 2_000, bid: nil, ask: "64001.3"),
        quote("64002.5", at: 3_000, bid: nil, ask: nil, source: .rest),
    ]

    /// What the store gives back of `quotes`: each by the price at its time, and all by the range.
    static func readBack(_ store: QuoteStore) throws -> [[StoredQuote]] {
        [try quotes.map { try #require(try store.quote(btc, atOrBefore: $0.timestamp)) }, try store.quotes(btc, after: noon, through: noon + 10_000)]
    }

    @Test func sqliteKeepsEachSideExactOrNull() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try QuoteStoreTests.open(directory)
        defer { store.close() }
        for quote in Self.quotes { store.record(quote) }
        store.flush()
        #expect(try Self.readBack(store) == [Self.quotes, Self.quotes])
    }

    /// The SQLite layout 1 as pricehost wrote it before bids: kept here as it was, as the frozen ABI headers are.
    static let layout1 = """
        CREATE TABLE series(id INTEGER PRIMARY KEY, asset TEXT NOT NULL, currency TEXT NOT NULL, origin TEXT NOT NULL,
            UNIQUE(asset, currency, origin));
        CREATE TABLE quotes(series INTEGER NOT NULL, ts INTEGER NOT NULL, lag INTEGER NOT NULL, amount TEXT NOT NULL,
            source INTEGER NOT NULL, PRIMARY KEY(series, ts, amount)) WITHOUT ROWID;
        CREATE TABLE candles(series INTEGER NOT NULL, span INTEGER NOT NULL, start INTEGER NOT NULL, open TEXT NOT NULL,
            high TEXT NOT NULL, low TEXT NOT NULL, close TEXT NOT NULL, count INTEGER NOT NULL, open_ts INTEGER NOT NULL,
            close_ts INTEGER NOT NULL, PRIMARY KEY(series, span, start)) WITHOUT ROWID;
        INSERT INTO series VALUES(1, 'BTC', 'USD', 'alpha');
        INSERT INTO quotes VALUES(1, \(noon + 500), 5, '63999.5', 0);
        PRAGMA user_version=1;
        """

    @Test func aLayout1FileIsReadAsItIsThenMigratedByTheWriter() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let library = try LibSQLite.shared.get()
        try SQLiteConnection(library: library, path: directory.file("quotes.db")).execute(Self.layout1)
        let old = QuoteStoreTests.quote("63999.5", at: 500)
        // `pricehost history`: no writer, the file as it is.
        let reading = try QuoteStore.openForReading(StoreSettings(path: directory.file("quotes.db")))
        #expect(try reading.quote(Self.btc, atOrBefore: Self.noon + 500) == old)
        reading.close()

        let store = try QuoteStoreTests.open(directory)
        defer { store.close() }
        for quote in Self.quotes { store.record(quote) }
        store.flush()
        #expect(store.currentStatus == .ok)
        #expect(try SQLiteConnection(library: library, path: directory.file("quotes.db"), readOnly: true).integer("PRAGMA user_version") == 2)
        #expect(try store.quotes(Self.btc, after: Self.noon, through: Self.noon + 10_000) == [old] + Self.quotes)
    }

    @Test func aFileOfANewerLayoutIsNeitherReadNorWritten() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try SQLiteConnection(library: try LibSQLite.shared.get(), path: directory.file("quotes.db")).execute(Self.layout1 + " PRAGMA user_version=99;")
        let newer = "the file was made by a newer pricehost (store layout 99; this one knows 2)"
        let reading = try QuoteStore.openForReading(StoreSettings(path: directory.file("quotes.db")))
        #expect(throws: StoreReadError(description: "the quote store \(directory.file("quotes.db")) cannot be read: \(newer)")) {
            try reading.origins(asset: "BTC", currency: "USD")
        }
        reading.close()
        // `watch --record` asks for a store it can write, and is refused one.
        #expect(throws: QuoteStore.OpenError.cannotWrite(path: directory.file("quotes.db"), reason: newer)) {
            try QuoteStore.open(StoreSettings(path: directory.file("quotes.db")), diagnostics: Diagnostics(threshold: .error), recorder: "watch --record")
        }
    }

    @Test func postgresKeepsEachSideExactOrNullThroughCopyAndInsert() throws {
        guard let server = try PostgresStoreTests.server() else { return }
        let store = try PostgresStoreTests.open(server.url(database: try server.makeDatabase()))
        defer { store.close() }
        for quote in Self.quotes { store.record(quote) }
        store.flush()
        #expect(try Self.readBack(store) == [Self.quotes, Self.quotes])
        // A batch holding a quote already kept goes through INSERT … ON CONFLICT, with NULL in its arrays.
        let more = [Self.quotes[0], Self.quote("64003", at: 4_000, bid: "64002.9", ask: nil), Self.quote("64004", at: 5_000, bid: nil, ask: nil)]
        for quote in more { store.record(quote) }
        store.flush()
        #expect(store.currentStatus == .ok)
        #expect(try store.quotes(Self.btc, after: Self.noon, through: Self.noon + 10_000) == Self.quotes + more.dropFirst())
    }

    @Test func aPostgresLayout2IsReadAsItIsThenMigratedByTheWriter() throws {
        guard let server = try PostgresStoreTests.server() else { return }
        let database = try server.makeDatabase()
        let steps = PostgresSchema.migrations.filter { $0.version <= 2 }.map(\.sql).joined(separator: " ")
        let day = PostgresSchema.Partitioned.quotes.create(StoreTime.floorDivide(Self.noon, 86_400_000))
        try server.psql("SET ROLE pricehost; \(steps) \(day); CREATE TABLE pricehost_store_meta(version integer NOT NULL);"
                        + " INSERT INTO pricehost_store_meta VALUES (2);"
                        + " INSERT INTO pricehost_series(id, asset, currency, origin) VALUES (1, 'BTC', 'USD', 'alpha');"
                        + " INSERT INTO pricehost_quotes VALUES (1, \(Self.noon + 500), 5, '63999.5', 0)", database: database)
        let old = QuoteStoreTests.quote("63999.5", at: 500)
        let url = try PostgresURL(server.url(database: database))
        let reading = try QuoteStore.openForReading(StoreSettings(location: .postgres(url)))
        #expect(try reading.quote(Self.btc, atOrBefore: Self.noon + 500) == old)
        reading.close()

        let store = try PostgresStoreTests.open(server.url(database: database))
        defer { store.close() }
        for quote in Self.quotes { store.record(quote) }
        store.flush()
        #expect(store.currentStatus == .ok)
        #expect(try server.psql("SELECT version FROM pricehost_store_meta", database: database) == "3")
        #expect(try store.quotes(Self.btc, after: Self.noon, through: Self.noon + 10_000) == [old] + Self.quotes)
    }
}
