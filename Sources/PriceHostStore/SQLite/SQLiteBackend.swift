import Glibc

extension SQLiteError {
    /// What the user reads: SQLite's words, with what they mean for the common states of a file.
    var reason: String {
        switch code {
        case SQLiteCode.full: "the disk is full (\(message))"
        case SQLiteCode.readOnly: "the file is read-only (\(message))"
        case SQLiteCode.notADatabase: "the file is not an SQLite database (\(message))"
        case SQLiteCode.corrupt: "the file is corrupt (\(message)); move it away and a new one is made"
        default: message
        }
    }

    var failure: StoreFailure { StoreFailure(reason) }
}

/// The quote store in one SQLite file (``StoreSchema``): written by ``StoreWriter``, read through a ``ReaderPool``.
struct SQLiteBackend: StoreBackend {
    let library: LibSQLite
    let path: String
    let readers: ReaderPool
    /// Whether the disk has room, for every writer this store opens in turn.
    let room: DiskRoom

    init(library: LibSQLite, path: String) {
        self.library = library
        self.path = path
        readers = ReaderPool(library: library, path: path)
        room = DiskRoom(path: path)
    }

    var label: String { "sqlite" }
    var location: String { path }
    var readsLocally: Bool { true }

    func makeWriter() throws(StoreFailure) -> any StoreWriting {
        // A file made writable again (after "the file is read-only") must be opened afresh: by no idle reader holding
        // its shared memory read-only, and with the -shm and -wal files SQLite made with the read-only file's mode writable too.
        let opened = readers.reopening { () -> Result<StoreWriter, SQLiteError> in
            Self.matchSharedMemoryMode(of: path)
            return Result { () throws(SQLiteError) in try StoreWriter(library: library, path: path, room: room) }
        }
        do throws(SQLiteError) {
            return try opened.get()
        } catch {
            // A directory at the path is no file SQLite can make or open: as a path under a file, the config's error.
            if Self.isDirectory(path) { throw StoreFailure("it is a directory, not a file", cannotCreate: true) }
            // Another process holding the file's lock past the busy timeout (a long prune) is a wait, not the file's state.
            throw StoreFailure(error.reason, cannotCreate: error.code == SQLiteCode.cantOpen && access(path, F_OK) != 0,
                               transient: error.code == SQLiteCode.busy || error.code == SQLiteCode.locked)
        }
    }

    /// Gives `PATH-shm` and `PATH-wal` the mode of `PATH` when `PATH` can be written and they cannot (only their owner
    /// can: this process made them, with the mode the file had then).
    static func matchSharedMemoryMode(of path: String) {
        var file = stat()
        guard access(path, W_OK) == 0, stat(path, &file) == 0 else { return }
        for companion in [path + "-shm", path + "-wal"] where access(companion, F_OK) == 0 && access(companion, W_OK) != 0 {
            _ = chmod(companion, file.st_mode & 0o666)
        }
    }

    var bytes: Int { Self.size(of: path) + Self.size(of: path + "-wal") }

    static func isDirectory(_ path: String) -> Bool {
        var information = stat()
        return stat(path, &information) == 0 && information.st_mode & S_IFMT == S_IFDIR
    }

    static func size(of path: String) -> Int {
        var information = stat()
        return stat(path, &information) == 0 ? Int(information.st_size) : 0
    }

    func origins(asset: String, currency: String) throws(StoreReadError) -> [QuoteOrigin] {
        try readers.read { connection throws(SQLiteError) in
            let select = try connection.statement("SELECT origin FROM series WHERE asset = ?1 AND currency = ?2")
            select.bind(1, asset); select.bind(2, currency)
            var found: [QuoteOrigin] = []
            while try select.step() { found.append(QuoteOrigin(key: select.text(0))) }
            return found
        }
    }

    func candles(_ series: SeriesKey, span: Int64, firstStart: Int64, lastStart: Int64, limit: Int) throws(StoreReadError) -> [Candle] {
        try readers.read { connection throws(SQLiteError) -> [Candle] in
            guard let id = try Self.seriesID(series, in: connection) else { return [] }
            let select = try connection.statement("""
                SELECT start, open, high, low, close, count FROM candles
                WHERE series = ?1 AND span = ?2 AND start BETWEEN ?3 AND ?4 ORDER BY start LIMIT ?5
                """)
            select.bind(1, id); select.bind(2, span); select.bind(3, firstStart); select.bind(4, lastStart); select.bind(5, Int64(limit))
            var found: [Candle] = []
            while try select.step() {
                found.append(Candle(start: select.int64(0) * 60_000, open: select.text(1), high: select.text(2), low: select.text(3),
                                    close: select.text(4), count: select.int64(5)))
            }
            return found
        }
    }

    func close(_ series: SeriesKey, span: Int64, before start: Int64) throws(StoreReadError) -> String? {
        try readers.read { connection throws(SQLiteError) -> String? in
            guard let id = try Self.seriesID(series, in: connection) else { return nil }
            let select = try connection.statement("SELECT close FROM candles WHERE series = ?1 AND span = ?2 AND start < ?3 ORDER BY start DESC LIMIT 1")
            select.bind(1, id); select.bind(2, span); select.bind(3, start)
            return try select.step() ? select.text(0) : nil
        }
    }

    func quote(_ series: SeriesKey, atOrBefore time: Int64) throws(StoreReadError) -> StoredQuote? {
        try readers.read { connection throws(SQLiteError) -> StoredQuote? in
            guard let id = try Self.seriesID(series, in: connection) else { return nil }
            let select = try connection.statement("SELECT \(try Self.quoteColumns(connection)) FROM quotes WHERE series = ?1 AND ts <= ?2 ORDER BY ts DESC, lag DESC LIMIT 1")
            select.bind(1, id); select.bind(2, time)
            return try select.step() ? Self.quote(series, from: select) : nil
        }
    }

    func quotes(_ series: SeriesKey, after: Int64, through: Int64) throws(StoreReadError) -> [StoredQuote] {
        try readers.read { connection throws(SQLiteError) -> [StoredQuote] in
            guard let id = try Self.seriesID(series, in: connection) else { return [] }
            let select = try connection.statement("SELECT \(try Self.quoteColumns(connection)) FROM quotes WHERE series = ?1 AND ts > ?2 AND ts <= ?3 ORDER BY ts, lag")
            select.bind(1, id); select.bind(2, after); select.bind(3, through)
            var found: [StoredQuote] = []
            while try select.step() { found.append(Self.quote(series, from: select)) }
            return found
        }
    }

    private static func quote(_ series: SeriesKey, from row: SQLiteStatement) -> StoredQuote {
        let timestamp = row.int64(0)
        return StoredQuote(series: series, amount: row.text(2), timestamp: timestamp, receivedAt: timestamp + row.int64(1),
                           source: row.int64(3) == 0 ? .stream : .rest,
                           bid: row.isNull(4) ? nil : row.text(4), ask: row.isNull(5) ? nil : row.text(5))
    }

    /// The quote columns of ``StoreSchema/quoteColumns(version:)`` for the file `connection` reads: a layout 1 file
    /// is read, as it is, by `pricehost history` before any writer has migrated it.
    private static func quoteColumns(_ connection: SQLiteConnection) throws(SQLiteError) -> String {
        StoreSchema.quoteColumns(version: try connection.integer("PRAGMA user_version"))
    }

    private static func seriesID(_ series: SeriesKey, in connection: SQLiteConnection) throws(SQLiteError) -> Int64? {
        let select = try connection.statement(StoreSchema.selectSeries)
        select.bind(1, series.asset); select.bind(2, series.currency); select.bind(3, series.origin.key)
        return try select.step() ? select.int64(0) : nil
    }
}
