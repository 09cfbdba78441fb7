/// The store's tables, in one SQLite file.
///
/// - `series`: one row per pair and origin (a provider's name, or `@median`); the other tables name it by `id`.
/// - `quotes`: every quote, kept `rawRetentionDays`: the series, the venue's time and the receipt's lag behind it
///   (both in milliseconds), the exact amount text, the source (0 stream, 1 rest), and the venue's bid and ask as
///   exact text, NULL when unknown (layout 2; a layout 1 file gains the two columns, NULL in its rows, when a
///   writer opens it). The key is the series, the
///   venue's time and the amount: a quote got twice (again after a restart, by a second process, through the feed
///   and its REST fallback) is kept once, as first received, and the table is its own index (WITHOUT ROWID):
///   about 30 bytes a quote on disk.
/// - `candles`: OHLC per series, interval (`span`, in minutes: 1, 5, 15, 60, 240, 1440) and window start (in
///   minutes since 1970), with the times of the open and close quotes, so that a quote arriving late lands in
///   its own window and moves its open or close only if it is earlier or later than theirs. Every interval is
///   kept as quotes are written: the same candles as rolling the 1-minute ones up, read without doing it.
enum StoreSchema {
    /// `PRAGMA user_version` of this layout; a newer file is refused, not rewritten.
    static let version: Int64 = 2

    /// Refuses a file of a layout newer than this one (made by a newer pricehost): neither read nor written.
    /// - Returns: the file's layout (`PRAGMA user_version`), at most ``version``.
    @discardableResult
    static func requireKnown(_ connection: SQLiteConnection) throws(SQLiteError) -> Int64 {
        let found = try connection.integer("PRAGMA user_version")
        guard found <= version else {
            throw SQLiteError(code: SQLiteCode.error, message: "the file was made by a newer pricehost (store layout \(found); this one knows \(version))")
        }
        return found
    }

    /// Refuses a file of layout 0 (no store's yet) that holds tables of something else: another application's
    /// database, which the store's tables would be added to. SQLite's own (`sqlite_sequence`, `sqlite_stat1`) are none.
    static func requireNoOtherTables(_ connection: SQLiteConnection) throws(SQLiteError) {
        let others = try connection.text("""
            SELECT group_concat(name, ', ') FROM sqlite_schema
            WHERE type = 'table' AND name NOT IN ('series', 'quotes', 'candles') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            """)
        if let others, !others.isEmpty {
            throw SQLiteError(code: SQLiteCode.error, message: "the file is another application's SQLite database (its tables: \(others)), not a quote store; name another path")
        }
    }

    /// What makes a layout 1 file (no bid nor ask) a layout 2 one: the two columns, NULL in the rows there are.
    static let migrateFrom1 = "ALTER TABLE quotes ADD COLUMN bid TEXT; ALTER TABLE quotes ADD COLUMN ask TEXT;"

    static let create = """
        CREATE TABLE IF NOT EXISTS series(
            id INTEGER PRIMARY KEY,
            asset TEXT NOT NULL,
            currency TEXT NOT NULL,
            origin TEXT NOT NULL,
            UNIQUE(asset, currency, origin));
        CREATE TABLE IF NOT EXISTS quotes(
            series INTEGER NOT NULL,
            ts INTEGER NOT NULL,
            lag INTEGER NOT NULL,
            amount TEXT NOT NULL,
            source INTEGER NOT NULL,
            bid TEXT,
            ask TEXT,
            PRIMARY KEY(series, ts, amount)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS candles(
            series INTEGER NOT NULL,
            span INTEGER NOT NULL,
            start INTEGER NOT NULL,
            open TEXT NOT NULL,
            high TEXT NOT NULL,
            low TEXT NOT NULL,
            close TEXT NOT NULL,
            count INTEGER NOT NULL,
            open_ts INTEGER NOT NULL,
            close_ts INTEGER NOT NULL,
            PRIMARY KEY(series, span, start)) WITHOUT ROWID;
        """

    static let insertSeries = "INSERT INTO series(asset, currency, origin) VALUES(?1, ?2, ?3) ON CONFLICT DO NOTHING"
    static let selectSeries = "SELECT id FROM series WHERE asset = ?1 AND currency = ?2 AND origin = ?3"
    static let insertQuote = "INSERT OR IGNORE INTO quotes(series, ts, lag, amount, source, bid, ask) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)"
    /// A quote's columns as reads take them, for a file of layout `version`: a layout 1 file (read before any writer
    /// migrated it) has no bid nor ask, and gives NULL for them.
    static func quoteColumns(version: Int64) -> String {
        version >= 2 ? "ts, lag, amount, source, bid, ask" : "ts, lag, amount, source, NULL, NULL"
    }
    static let selectCandle = """
        SELECT open, high, low, close, count, open_ts, close_ts FROM candles WHERE series = ?1 AND span = ?2 AND start = ?3
        """
    static let upsertCandle = """
        INSERT OR REPLACE INTO candles(series, span, start, open, high, low, close, count, open_ts, close_ts)
        VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
        """
}
