import Glibc
import PriceHostCore

/// What the writer's thread does with each batch: one transaction that adds the quotes and updates
/// every interval's candle they fall in. It owns the one read-write connection; nothing else uses it.
final class StoreWriter: StoreWriting {
    /// A candle being updated by the batch.
    private struct CandleKey: Hashable {
        var series: Int64
        var span: Int64
        var start: Int64
    }

    private let connection: SQLiteConnection
    private let room: DiskRoom
    private let path: String
    /// The file opened (its device and inode): one removed or replaced meanwhile is written no more.
    private let file: FileIdentity?

    private struct FileIdentity: Equatable {
        var device: UInt
        var inode: UInt
    }
    private let spans = CandleInterval.allCases.map(\.minutes)
    /// Each series' id, once read or made; forgotten when a transaction fails (its new rows are gone).
    private var seriesIDs: [SeriesKey: Int64] = [:]
    private var checkpoints: CheckpointSchedule

    /// Opens the file read-write (creating it), in WAL mode, with the tables made; its checkpoints are timed on the
    /// system's clock unless a test gives its own.
    init(library: LibSQLite, path: String, room: DiskRoom? = nil, now: @escaping () -> ContinuousClock.Instant = { .now }) throws(SQLiteError) {
        self.room = room ?? DiskRoom(path: path)
        self.path = path
        checkpoints = CheckpointSchedule(now: now)
        connection = try SQLiteConnection(library: library, path: path)
        // Before the switch to WAL, which SQLite keeps in the file's header: another application's file is left as it was.
        if try StoreSchema.requireKnown(connection) == 0 { try StoreSchema.requireNoOtherTables(connection) }
        let mode = try connection.text("PRAGMA journal_mode=WAL")
        guard mode?.lowercased() == "wal" else {
            throw SQLiteError(code: SQLiteCode.readOnly, message: "cannot switch the file to WAL mode (journal_mode is \(mode ?? "unknown")); is it read-only?")
        }
        // A process killed loses nothing committed in WAL mode with NORMAL; a power cut may lose the last commits, never the file.
        try connection.execute("PRAGMA synchronous=NORMAL")
        // The writer checkpoints itself, before a batch (`checkpoint()`, `CheckpointSchedule`), not SQLite inside a commit.
        try connection.execute("PRAGMA wal_autocheckpoint=0")
        // The layout read again under the write lock: another process may have made or migrated the file meanwhile.
        try connection.execute("BEGIN IMMEDIATE")
        do throws(SQLiteError) {
            if try connection.integer("PRAGMA user_version") == 1 { try connection.execute(StoreSchema.migrateFrom1) }
            try connection.execute(StoreSchema.create + " PRAGMA user_version=\(StoreSchema.version); COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
        file = Self.identity(of: path)
    }

    /// Writes `batch` in one transaction; the quotes already kept (the same series, time, lag and amount) are skipped.
    /// - Returns: how many were new.
    func write(_ batch: [StoredQuote]) throws(StoreFailure) -> Int {
        // Removed (`rm`, `mv`) or replaced while open, the file this connection writes is one nobody reads again: the
        // batch waits, and the next writer opens the file at the path, made anew (a file put there is read as it is).
        guard let opened = file, Self.identity(of: path) == opened else {
            throw StoreFailure("the file was removed or replaced while it was open; a new one is made", transient: true)
        }
        do throws(SQLiteError) {
            return try writeBatch(batch)
        } catch {
            throw error.failure
        }
    }

    func prune(rawBefore: Int64, candlesBefore: Int64) throws(StoreFailure) {
        do throws(SQLiteError) {
            try deleteOld(rawBefore: rawBefore, candlesBefore: candlesBefore)
        } catch {
            throw error.failure
        }
    }

    /// Copies the WAL's pages into the file, before a batch when ``CheckpointSchedule`` says (every 5,000 quotes or
    /// each second). SQLite's own checkpoint (off: `wal_autocheckpoint=0`) ran inside a commit once the WAL reached
    /// 1,000 pages: 4 MB copied at once every 2 s at 10,000 quotes a second, which stalled a stream on the same two
    /// cores for 2 to 9 ms (BENCHMARKS.md, "The writer checkpoints"). After a checkpoint that copied everything, the
    /// next commit writes the WAL from its start again, so its frames do not pile up either (its file keeps its largest
    /// size). Passive: it never waits for a reader or another checkpoint (pages still in use are copied by a later one).
    /// With `synchronous=NORMAL` a checkpoint that copies anything syncs the WAL and the file. Before a batch, not after
    /// a commit: a disk that refuses the pages (full, failing) fails the batch as a refused commit does (dropped and
    /// counted, and the store says why), and nothing of the batch was committed.
    private func checkpoint() throws(SQLiteError) {
        _ = try connection.integer("PRAGMA wal_checkpoint(PASSIVE)")
    }

    /// The device and inode of the file at `path`; `nil` when there is none.
    private static func identity(of path: String) -> FileIdentity? {
        var information = stat()
        guard stat(path, &information) == 0 else { return nil }
        return FileIdentity(device: UInt(information.st_dev), inode: UInt(information.st_ino))
    }

    /// Moves the WAL's pages into the file, as the last writer does when it closes.
    func finish() {
        try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    private func writeBatch(_ batch: [StoredQuote]) throws(SQLiteError) -> Int {
        defer { connection.resetAll() }
        do throws(SQLiteError) {
            var turn = BatchTurn(count: batch.count)
            try room.require()
            if checkpoints.isDue {
                try checkpoint()
                checkpoints.checkpointed()
                turn.restAfterCheckpoint()
            }
            checkpoints.writing(batch.count)
            try connection.execute("BEGIN IMMEDIATE")
            // The batch's candles: their states in an array, found by key. Updating a dictionary's value in place
            // goes through a coroutine whose frame is allocated: six a quote were a fifth of a write.
            var slots: [CandleKey: Int] = [:]
            var keys: [CandleKey] = []
            var candles: [CandleState] = []
            let insert = try connection.statement(StoreSchema.insertQuote)
            var written = 0
            // Quotes of one series often come in a row: its id without hashing its key again.
            var last: (key: SeriesKey, id: Int64)?
            // And in one minute: the six candles' slots of the last quote's series and minute, found once for all of them.
            var cursor: (series: Int64, minute: Int64)?
            var cursorSlots = [Int](repeating: 0, count: spans.count)
            for quote in batch {
                turn.step()
                let series: Int64
                if let last, last.key == quote.series {
                    series = last.id
                } else {
                    series = try seriesID(quote.series)
                    last = (quote.series, series)
                }
                insert.reset()
                insert.bind(1, series)
                insert.bind(2, quote.timestamp)
                insert.bind(3, quote.receivedAt - quote.timestamp)
                insert.bind(4, quote.amount)
                insert.bind(5, quote.source == .stream ? 0 : 1)
                if let bid = quote.bid { insert.bind(6, bid) } else { insert.bindNull(6) }
                if let ask = quote.ask { insert.bind(7, ask) } else { insert.bindNull(7) }
                try insert.step()
                guard connection.changes > 0 else { continue }
                written += 1
                let value = ScaledAmount(quote.amount)
                let minute = StoreTime.floorDivide(quote.timestamp, 60_000)
                if cursor?.series != series || cursor?.minute != minute {
                    for (index, span) in spans.enumerated() {
                        let key = CandleKey(series: series, span: span, start: StoreTime.floorDivide(minute, span) * span)
                        if let found = slots[key] {
                            cursorSlots[index] = found
                        } else {
                            cursorSlots[index] = candles.count
                            slots[key] = candles.count
                            candles.append(try stored(key) ?? CandleState(quote.amount, at: quote.timestamp))
                            keys.append(key)
                        }
                    }
                    cursor = (series, minute)
                }
                for slot in cursorSlots {
                    candles[slot].add(quote.amount, value, at: quote.timestamp)
                }
            }
            let upsert = try connection.statement(StoreSchema.upsertCandle)
            for (key, candle) in zip(keys, candles) {
                turn.step()
                upsert.reset()
                upsert.bind(1, key.series); upsert.bind(2, key.span); upsert.bind(3, key.start)
                upsert.bind(4, candle.open); upsert.bind(5, candle.high); upsert.bind(6, candle.low); upsert.bind(7, candle.close)
                upsert.bind(8, candle.count); upsert.bind(9, candle.openTimestamp); upsert.bind(10, candle.closeTimestamp)
                try upsert.step()
            }
            try connection.execute("COMMIT")
            return written
        } catch {
            if error.code == SQLiteCode.full { room.filled() }
            rollBack()
            throw error
        }
    }

    private func deleteOld(rawBefore: Int64, candlesBefore: Int64) throws(SQLiteError) {
        do throws(SQLiteError) {
            try connection.execute("BEGIN IMMEDIATE")
            try connection.execute("DELETE FROM quotes WHERE series IN (SELECT id FROM series) AND ts < \(rawBefore)")
            let minute = StoreTime.floorDivide(candlesBefore, 60_000)
            try connection.execute("DELETE FROM candles WHERE series IN (SELECT id FROM series) AND span IN (\(spans.map(String.init).joined(separator: ","))) AND start < \(minute)")
            try connection.execute("COMMIT")
            checkpoints.pruned()
        } catch {
            rollBack()
            throw error
        }
    }

    private func rollBack() {
        try? connection.execute("ROLLBACK")
        seriesIDs.removeAll()
    }

    private func seriesID(_ key: SeriesKey) throws(SQLiteError) -> Int64 {
        if let id = seriesIDs[key] { return id }
        let insert = try connection.statement(StoreSchema.insertSeries)
        insert.bind(1, key.asset); insert.bind(2, key.currency); insert.bind(3, key.origin.key)
        try insert.step()
        let select = try connection.statement(StoreSchema.selectSeries)
        select.bind(1, key.asset); select.bind(2, key.currency); select.bind(3, key.origin.key)
        defer { select.reset() }
        guard try select.step() else { throw SQLiteError(code: SQLiteCode.error, message: "a series row just written is not there") }
        let id = select.int64(0)
        seriesIDs[key] = id
        return id
    }

    private func stored(_ key: CandleKey) throws(SQLiteError) -> CandleState? {
        let select = try connection.statement(StoreSchema.selectCandle)
        select.bind(1, key.series); select.bind(2, key.span); select.bind(3, key.start)
        defer { select.reset() }
        guard try select.step() else { return nil }
        return CandleState(open: select.text(0), high: select.text(1), low: select.text(2), close: select.text(3), count: select.int64(4),
                           openTimestamp: select.int64(5), closeTimestamp: select.int64(6))
    }
}
