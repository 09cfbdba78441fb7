import PriceHostCore

extension PostgresError {
    /// What the user reads, with what the common refusals mean.
    var reason: String {
        switch sqlState {
        case "42P01": "\(message); nothing has been recorded in this database yet"
        case "42501": "\(message); the role needs CREATE on the schema (on PostgreSQL 15 and later only the database's owner may create in public)"
        default: message
        }
    }

    var failure: StoreFailure { StoreFailure(reason, transient: isTransient) }
}

/// What the writer's thread does with each batch, in PostgreSQL: the quotes in one statement, the ones new to the
/// table coming back, and the candles of every interval they fall in merged in the same transaction. Only the quotes
/// this writer added count in a candle: a quote written twice (a batch retried, or a fleet's second instance) is
/// stored and counted once.
final class PostgresWriter: StoreWriting {
    private struct CandleKey: Hashable {
        var series: Int64
        var span: Int64
        var start: Int64
    }

    private struct QuoteKey: Hashable {
        var series: Int64
        var timestamp: Int64
        var amount: String
    }

    /// The longest a statement of the writer waits for the server (a batch of 200,000 quotes takes a few seconds):
    /// a server that stopped answering is then given up on, and the batch tried again on a new connection.
    static let timeout: Duration = .seconds(30)

    private let connection: PostgresConnection
    private let spans = CandleInterval.allCases.map(\.minutes)
    private let bytes: ByteCount
    /// Each series' id, once read or made (series are never deleted).
    private var seriesIDs: [SeriesKey: Int64] = [:]
    /// The day partitions known to exist; forgotten when a batch fails (another instance may have dropped one).
    private var partitions: Set<String> = []
    private var nextSizeCheck = ContinuousClock.now

    /// Connects and brings the layout to ``PostgresSchema/version``.
    /// - Throws: a transient failure when the server cannot be reached; a lasting one for a newer layout or a refusal.
    init(library: LibPQ, url: PostgresURL, bytes: ByteCount) throws(StoreFailure) {
        self.bytes = bytes
        do throws(PostgresError) {
            connection = try PostgresConnection(library: library, url: url, timeout: Self.timeout)
        } catch {
            throw error.failure
        }
        try Self.migrate(connection)
        updateSize()
    }

    /// Reads the layout's version and runs the steps past it, all in one transaction under an advisory lock.
    static func migrate(_ connection: PostgresConnection) throws(StoreFailure) {
        let found: Int
        do throws(PostgresError) {
            try connection.execute("BEGIN")
            try connection.query(PostgresSchema.migrationLock)
            try connection.execute(PostgresSchema.createMeta)
            let rows = try connection.query("SELECT max(version) FROM pricehost_store_meta")
            found = rows.count > 0 && !rows.isNull(0, 0) ? Int(rows.int64(0, 0)) : 0
            if found < PostgresSchema.version {
                for step in PostgresSchema.migrations where step.version > found { try connection.execute(step.sql) }
                try connection.execute("DELETE FROM pricehost_store_meta")
                try connection.query("INSERT INTO pricehost_store_meta(version) VALUES($1)", [String(PostgresSchema.version)])
            }
            try connection.execute(found <= PostgresSchema.version ? "COMMIT" : "ROLLBACK")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error.failure
        }
        guard found <= PostgresSchema.version else {
            throw StoreFailure("the database \(connection.url.redacted) was made by a newer pricehost (store layout \(found); this one knows \(PostgresSchema.version)); use that pricehost, or another database")
        }
    }

    func write(_ batch: [StoredQuote]) throws(StoreFailure) -> Int {
        var retried = false
        while true {
            do throws(PostgresError) {
                return try writeBatch(batch)
            } catch {
                try? connection.execute("ROLLBACK")
                partitions.removeAll()
                // 23514, no partition for a row: another instance's retention dropped a day this writer knew. Once more, making it.
                guard error.sqlState == "23514", !retried else { throw error.failure }
                retried = true
            }
        }
    }

    /// Drops what is past the retention, by one instance of a fleet at a time: under a session's advisory lock taken
    /// without waiting, so an instance that finds another pruning leaves it to that one (its next hourly prune looks
    /// again), rather than dropping the same partitions at once. Each statement commits on its own, as before: a
    /// partition's drop locks its table for a moment, not for the whole prune.
    func prune(rawBefore: Int64, candlesBefore: Int64) throws(StoreFailure) {
        do throws(PostgresError) {
            guard try connection.query(PostgresSchema.pruneLock).text(0, 0) == "t" else { return }
            defer { _ = try? connection.query(PostgresSchema.pruneUnlock) }
            try drop(.quotes, before: StoreTime.floorDivide(rawBefore, 86_400_000))
            let minute = StoreTime.floorDivide(candlesBefore, 60_000)
            try drop(.minuteCandles, before: StoreTime.floorDivide(minute, 1_440))
            try connection.query("DELETE FROM pricehost_candles WHERE start < $1", [String(minute)])
            updateSize()
        } catch {
            throw error.failure
        }
    }

    func finish() {}

    /// Drops the day partitions of `table` that end at or before the start of `day`: whole days only.
    private func drop(_ table: PostgresSchema.Partitioned, before day: Int64) throws(PostgresError) {
        let rows = try connection.query(table.listPartitions)
        let prefix = table.rawValue + "_"
        for row in 0..<rows.count {
            let name = rows.text(row, 0)
            guard name.hasPrefix(prefix), let partitionDay = CivilDay.day(named: name.dropFirst(prefix.count)), partitionDay < day else { continue }
            try connection.execute("DROP TABLE IF EXISTS \(name)")
            partitions.remove(name)
        }
    }

    private func writeBatch(_ batch: [StoredQuote]) throws(PostgresError) -> Int {
        // Series and partitions are made outside the batch's transaction: each is kept once made, whatever the batch does.
        var ids: [Int64] = []
        ids.reserveCapacity(batch.count)
        for quote in batch { ids.append(try seriesID(quote.series)) }
        for day in Set(batch.map { StoreTime.floorDivide($0.timestamp, 86_400_000) }) {
            for table in PostgresSchema.Partitioned.allCases { try makePartition(table, day) }
        }
        try connection.execute("BEGIN")
        // Most batches are all new: COPY takes them at several times an INSERT's speed. One that holds a quote the table
        // has (a restart, a fleet's new holder writing the kept events, a batch retried) fails as a whole, and goes
        // through INSERT … ON CONFLICT DO NOTHING, which keeps the new ones and says which they are.
        var new: [QuoteKey: Int]?
        var written = batch.count
        do throws(PostgresError) {
            try connection.copy(PostgresSchema.copyQuotes, rows: Self.copyRows(batch, ids: ids))
        } catch where error.sqlState == "23505" {
            try connection.execute("ROLLBACK")
            try connection.execute("BEGIN")
            let inserted = try connection.query(PostgresSchema.insertQuotes, [
                Self.array(ids.map(String.init)),
                Self.array(batch.map { String($0.timestamp) }),
                Self.array(batch.map { String($0.receivedAt - $0.timestamp) }),
                Self.array(batch.map(\.amount)),
                Self.array(batch.map { $0.source == .stream ? "0" : "1" }),
                Self.array(batch.map(\.bid)), Self.array(batch.map(\.ask)),
            ])
            var returned: [QuoteKey: Int] = [:]
            for row in 0..<inserted.count {
                returned[QuoteKey(series: inserted.int64(row, 0), timestamp: inserted.int64(row, 1), amount: inserted.text(row, 2)), default: 0] += 1
            }
            new = returned
            written = inserted.count
        }
        // The batch's own order decides ties, as in SQLite: the first of the batch's copies of a quote is the one written.
        var candles: [CandleKey: CandleState] = [:]
        var order: [CandleKey] = []
        for (index, quote) in batch.enumerated() {
            if new != nil {
                let key = QuoteKey(series: ids[index], timestamp: quote.timestamp, amount: quote.amount)
                guard let left = new?[key], left > 0 else { continue }
                new?[key] = left - 1
            }
            let minute = StoreTime.floorDivide(quote.timestamp, 60_000)
            for span in spans {
                let candle = CandleKey(series: ids[index], span: span, start: StoreTime.floorDivide(minute, span) * span)
                if candles[candle] == nil {
                    candles[candle] = CandleState(quote.amount, at: quote.timestamp)
                    order.append(candle)
                }
                candles[candle]?.add(quote.amount, at: quote.timestamp)
            }
        }
        for minute in [true, false] {
            let keys = order.filter { ($0.span == 1) == minute }
            guard !keys.isEmpty else { continue }
            let states = keys.compactMap { candles[$0] }
            var columns = [Self.array(keys.map { String($0.series) })]
            if !minute { columns.append(Self.array(keys.map { String($0.span) })) }
            columns += [
                Self.array(keys.map { String($0.start) }),
                Self.array(states.map(\.open)), Self.array(states.map(\.high)), Self.array(states.map(\.low)), Self.array(states.map(\.close)),
                Self.array(states.map { String($0.count) }),
                Self.array(states.map { String($0.openTimestamp) }), Self.array(states.map { String($0.closeTimestamp) }),
            ]
            try connection.query(PostgresSchema.upsertCandles(minute: minute), columns)
        }
        try connection.execute("COMMIT")
        if ContinuousClock.now >= nextSizeCheck { updateSize() }
        return written
    }

    /// The batch's quotes as `COPY pricehost_quotes(series, ts, lag, amount, source, bid, ask)`'s text rows (`\N`: NULL).
    static func copyRows(_ batch: [StoredQuote], ids: [Int64]) -> [UInt8] {
        var rows: [UInt8] = []
        rows.reserveCapacity(batch.count * 48)
        for (index, quote) in batch.enumerated() {
            rows += String(ids[index]).utf8
            rows.append(UInt8(ascii: "\t"))
            rows += String(quote.timestamp).utf8
            rows.append(UInt8(ascii: "\t"))
            rows += String(quote.receivedAt - quote.timestamp).utf8
            rows.append(UInt8(ascii: "\t"))
            PostgresConnection.appendCopyField(quote.amount, to: &rows)
            rows += quote.source == .stream ? [UInt8(ascii: "\t"), UInt8(ascii: "0")] : [UInt8(ascii: "\t"), UInt8(ascii: "1")]
            for side in [quote.bid, quote.ask] {
                rows.append(UInt8(ascii: "\t"))
                if let side { PostgresConnection.appendCopyField(side, to: &rows) } else { rows += [UInt8(ascii: "\\"), UInt8(ascii: "N")] }
            }
            rows.append(UInt8(ascii: "\n"))
        }
        return rows
    }

    private func makePartition(_ table: PostgresSchema.Partitioned, _ day: Int64) throws(PostgresError) {
        let name = table.partition(day)
        guard !partitions.contains(name) else { return }
        do throws(PostgresError) {
            try connection.execute(table.create(day))
        } catch where error.sqlState == "42P07" || error.sqlState == "23505" {
            // Another instance made it between our IF NOT EXISTS and our CREATE.
        }
        partitions.insert(name)
    }

    private func seriesID(_ key: SeriesKey) throws(PostgresError) -> Int64 {
        if let id = seriesIDs[key] { return id }
        let parameters = [key.asset, key.currency, key.origin.key]
        try connection.query(PostgresSchema.insertSeries, parameters)
        let rows = try connection.query(PostgresSchema.selectSeries, parameters)
        guard rows.count > 0 else { throw PostgresError(sqlState: nil, message: "a series row just written is not there", isTransient: true) }
        let id = rows.int64(0, 0)
        seriesIDs[key] = id
        return id
    }

    /// Reads the tables' size for the metrics: at start, after a prune, and at most once a minute after a batch.
    private func updateSize() {
        nextSizeCheck = ContinuousClock.now + .seconds(60)
        guard let rows = try? connection.query(PostgresSchema.bytes), rows.count > 0 else { return }
        bytes.set(Int(rows.int64(0, 0)))
    }

    /// A PostgreSQL array literal of `values`, each quoted (`{"1","2"}`), `nil` as `NULL`, for an `unnest` of one parameter.
    static func array(_ values: [String?]) -> String {
        var text = "{"
        text.reserveCapacity(values.count * 16)
        for (index, value) in values.enumerated() {
            if index > 0 { text += "," }
            guard let value else {
                text += "NULL"
                continue
            }
            text += "\""
            for character in value.unicodeScalars {
                if character == "\"" || character == "\\" { text += "\\" }
                text.unicodeScalars.append(character)
            }
            text += "\""
        }
        return text + "}"
    }
}
