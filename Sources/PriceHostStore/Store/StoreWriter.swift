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

    private struct CandleState {
        var open: String, high: String, low: String, close: String
        var count: Int64
        var openTimestamp: Int64, closeTimestamp: Int64
        /// `high` and `low` read once as numbers, so that each quote is compared without reading them again.
        var highValue: ScaledAmount, lowValue: ScaledAmount

        init(_ amount: String, at timestamp: Int64) {
            open = amount; high = amount; low = amount; close = amount
            count = 0
            openTimestamp = timestamp; closeTimestamp = timestamp
            highValue = ScaledAmount(amount); lowValue = highValue
        }

        /// Adds one quote (`value` is `amount` read): the earliest (by the venue's time) opens, the latest closes
        /// (the later one written on a tie).
        mutating func add(_ amount: String, _ value: ScaledAmount, at timestamp: Int64) {
            count += 1
            if timestamp < openTimestamp { open = amount; openTimestamp = timestamp }
            if timestamp >= closeTimestamp { close = amount; closeTimestamp = timestamp }
            if ScaledAmount.compare(value, amount, highValue, high) > 0 { high = amount; highValue = value }
            if ScaledAmount.compare(value, amount, lowValue, low) < 0 { low = amount; lowValue = value }
        }
    }

    /// An amount's text (`-?digits(.digits)?`) as an integer and its decimal places, when it has at most 18 digits:
    /// two such compare as integers. Any other text compares as ``DecimalText`` compares it, the same order.
    /// Each quote is compared with the high and low of six candles: reading the text each time was a sixth of a write.
    private struct ScaledAmount {
        var units: Int64
        /// Digits after the point; -1 when the text is not read (too many digits, or not the usual form).
        var places: Int

        init(_ text: String) {
            var units: Int64 = 0
            var places = -1
            var digits = 0
            var negative = false
            var valid = true
            for (index, byte) in text.utf8.enumerated() {
                switch byte {
                case UInt8(ascii: "-") where index == 0: negative = true
                case UInt8(ascii: "."): valid = valid && places < 0 && digits > 0; places = 0
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    digits += 1
                    if places >= 0 { places += 1 }
                    units = units &* 10 &+ Int64(byte - UInt8(ascii: "0"))
                default: valid = false
                }
            }
            let read = valid && digits > 0 && digits <= 18 && places != 0
            self.units = read ? (negative ? -units : units) : 0
            self.places = read ? max(places, 0) : -1
        }

        /// -1, 0 or 1 as `left` (`leftText` read) is below, equal to or above `right`.
        static func compare(_ left: ScaledAmount, _ leftText: String, _ right: ScaledAmount, _ rightText: String) -> Int {
            guard left.places >= 0, right.places >= 0 else { return DecimalText.compare(leftText, rightText) }
            var (a, b) = (left.units, right.units)
            // To the same places: at most 18 digits each, so a scale of up to 10^18 fits unless the value is large.
            for _ in left.places..<max(left.places, right.places) {
                let (scaled, overflow) = a.multipliedReportingOverflow(by: 10)
                if overflow { return DecimalText.compare(leftText, rightText) }
                a = scaled
            }
            for _ in right.places..<max(left.places, right.places) {
                let (scaled, overflow) = b.multipliedReportingOverflow(by: 10)
                if overflow { return DecimalText.compare(leftText, rightText) }
                b = scaled
            }
            return a < b ? -1 : a > b ? 1 : 0
        }
    }

    private let connection: SQLiteConnection
    private let spans = CandleInterval.allCases.map(\.minutes)
    /// Each series' id, once read or made; forgotten when a transaction fails (its new rows are gone).
    private var seriesIDs: [SeriesKey: Int64] = [:]

    /// Opens the file read-write (creating it), in WAL mode, with the tables made.
    init(library: LibSQLite, path: String) throws(SQLiteError) {
        connection = try SQLiteConnection(library: library, path: path)
        let version = try connection.integer("PRAGMA user_version")
        guard version <= StoreSchema.version else {
            throw SQLiteError(code: SQLiteCode.error, message: "the file was made by a newer pricehost (store layout \(version); this one knows \(StoreSchema.version))")
        }
        let mode = try connection.text("PRAGMA journal_mode=WAL")
        guard mode?.lowercased() == "wal" else {
            throw SQLiteError(code: SQLiteCode.readOnly, message: "cannot switch the file to WAL mode (journal_mode is \(mode ?? "unknown")); is it read-only?")
        }
        // A process killed loses nothing committed in WAL mode with NORMAL; a power cut may lose the last commits, never the file.
        try connection.execute("PRAGMA synchronous=NORMAL")
        try connection.execute("BEGIN IMMEDIATE; " + StoreSchema.create + " PRAGMA user_version=\(StoreSchema.version); COMMIT")
    }

    /// Writes `batch` in one transaction; the quotes already kept (the same series, time, lag and amount) are skipped.
    /// - Returns: how many were new.
    func write(_ batch: [StoredQuote]) throws(StoreFailure) -> Int {
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

    /// Moves the WAL's pages into the file, as the last writer does when it closes.
    func finish() {
        try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    private func writeBatch(_ batch: [StoredQuote]) throws(SQLiteError) -> Int {
        defer { connection.resetAll() }
        do throws(SQLiteError) {
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
            for quote in batch {
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
                try insert.step()
                guard connection.changes > 0 else { continue }
                written += 1
                let value = ScaledAmount(quote.amount)
                let minute = Self.floorDivide(quote.timestamp, 60_000)
                for span in spans {
                    let key = CandleKey(series: series, span: span, start: Self.floorDivide(minute, span) * span)
                    let slot: Int
                    if let found = slots[key] {
                        slot = found
                    } else {
                        slot = candles.count
                        candles.append(try stored(key) ?? CandleState(quote.amount, at: quote.timestamp))
                        keys.append(key)
                        slots[key] = slot
                    }
                    candles[slot].add(quote.amount, value, at: quote.timestamp)
                }
            }
            let upsert = try connection.statement(StoreSchema.upsertCandle)
            for (key, candle) in zip(keys, candles) {
                upsert.reset()
                upsert.bind(1, key.series); upsert.bind(2, key.span); upsert.bind(3, key.start)
                upsert.bind(4, candle.open); upsert.bind(5, candle.high); upsert.bind(6, candle.low); upsert.bind(7, candle.close)
                upsert.bind(8, candle.count); upsert.bind(9, candle.openTimestamp); upsert.bind(10, candle.closeTimestamp)
                try upsert.step()
            }
            try connection.execute("COMMIT")
            return written
        } catch {
            rollBack()
            throw error
        }
    }

    private func deleteOld(rawBefore: Int64, candlesBefore: Int64) throws(SQLiteError) {
        do throws(SQLiteError) {
            try connection.execute("BEGIN IMMEDIATE")
            try connection.execute("DELETE FROM quotes WHERE series IN (SELECT id FROM series) AND ts < \(rawBefore)")
            let minute = Self.floorDivide(candlesBefore, 60_000)
            try connection.execute("DELETE FROM candles WHERE series IN (SELECT id FROM series) AND span IN (\(spans.map(String.init).joined(separator: ","))) AND start < \(minute)")
            try connection.execute("COMMIT")
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
        var candle = CandleState(select.text(0), at: select.int64(5))
        candle.high = select.text(1); candle.low = select.text(2); candle.close = select.text(3)
        candle.highValue = ScaledAmount(candle.high); candle.lowValue = ScaledAmount(candle.low)
        candle.count = select.int64(4); candle.closeTimestamp = select.int64(6)
        return candle
    }

    /// `value / divisor` rounded toward minus infinity: a time before 1970 belongs to the window that starts before it.
    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }
}
