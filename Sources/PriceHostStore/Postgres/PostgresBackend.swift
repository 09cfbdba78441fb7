import ConcurrencyHelpers
import PriceHostCore

/// A size the writer reads now and then and `/metrics` reads at any time.
final class ByteCount: Sendable {
    private let value = Lock(0)
    func set(_ bytes: Int) { value.withLock { $0 = bytes } }
    var bytes: Int { value.withLock { $0 } }
}

/// Whether the database's quotes have their bid and ask columns (layout 3), once a read has seen they do: a database
/// migrated stays so, and until then each read asks (`pricehost history` reads a database no writer has migrated).
final class SidesColumns: Sendable {
    private let known = Lock(false)

    /// The quote columns a read selects: with `bid` and `ask`, or NULL in their place before layout 3.
    func columns(_ connection: PostgresConnection) throws(PostgresError) -> String {
        if known.withLock({ $0 }) { return Self.withSides }
        let rows = try connection.query("SELECT max(version) FROM pricehost_store_meta")
        guard rows.count > 0, !rows.isNull(0, 0), rows.int64(0, 0) >= PostgresSchema.sidesVersion else { return Self.withoutSides }
        known.withLock { $0 = true }
        return Self.withSides
    }

    static let withSides = "ts, lag, amount, source, bid, ask"
    static let withoutSides = "ts, lag, amount, source, NULL, NULL"
}

/// The quote store in a PostgreSQL database (``PostgresSchema``): written by ``PostgresWriter``, read through a small
/// pool of connections. Every answer is made from the database alone, so any two instances on it answer alike.
struct PostgresBackend: StoreBackend {
    let library: LibPQ
    let url: PostgresURL
    let readers: PostgresReaderPool
    private let size = ByteCount()
    private let sides = SidesColumns()

    init(library: LibPQ, url: PostgresURL) {
        self.library = library
        self.url = url
        readers = PostgresReaderPool(library: library, url: url)
    }

    var label: String { "postgres" }
    var location: String { url.redacted }
    var readsLocally: Bool { false }
    var bytes: Int { size.bytes }

    func makeWriter() throws(StoreFailure) -> any StoreWriting {
        try PostgresWriter(library: library, url: url, bytes: size)
    }

    func origins(asset: String, currency: String) throws(StoreReadError) -> [QuoteOrigin] {
        try readers.read { connection throws(PostgresError) in
            let rows = try connection.query("SELECT origin FROM pricehost_series WHERE asset = $1 AND currency = $2", [asset, currency])
            return (0..<rows.count).map { QuoteOrigin(key: rows.text($0, 0)) }
        }
    }

    func candles(_ series: SeriesKey, span: Int64, firstStart: Int64, lastStart: Int64, limit: Int) throws(StoreReadError) -> [Candle] {
        try readers.read { connection throws(PostgresError) -> [Candle] in
            let rows = try connection.query("""
                SELECT start, open, high, low, close, count FROM \(Self.table(span))
                WHERE series = \(PostgresSchema.series) AND \(Self.span(span, parameter: 4)) start BETWEEN $5 AND $6 ORDER BY start LIMIT $7
                """, Self.parameters(series) + [String(span), String(firstStart), String(lastStart), String(limit)])
            return (0..<rows.count).map { row in
                Candle(start: rows.int64(row, 0) * 60_000, open: rows.text(row, 1), high: rows.text(row, 2), low: rows.text(row, 3),
                       close: rows.text(row, 4), count: rows.int64(row, 5))
            }
        }
    }

    func close(_ series: SeriesKey, span: Int64, before start: Int64) throws(StoreReadError) -> String? {
        try readers.read { connection throws(PostgresError) -> String? in
            let rows = try connection.query("""
                SELECT close FROM \(Self.table(span)) WHERE series = \(PostgresSchema.series) AND \(Self.span(span, parameter: 4)) start < $5
                ORDER BY start DESC LIMIT 1
                """, Self.parameters(series) + [String(span), String(start)])
            return rows.count > 0 ? rows.text(0, 0) : nil
        }
    }

    func quote(_ series: SeriesKey, atOrBefore time: Int64) throws(StoreReadError) -> StoredQuote? {
        try readers.read { connection throws(PostgresError) -> StoredQuote? in
            let rows = try connection.query("""
                SELECT \(try sides.columns(connection)) FROM pricehost_quotes WHERE series = \(PostgresSchema.series) AND ts <= $4
                ORDER BY ts DESC, lag DESC, amount DESC, source DESC LIMIT 1
                """, Self.parameters(series) + [String(time)])
            return rows.count > 0 ? Self.quote(series, rows, 0) : nil
        }
    }

    func quotes(_ series: SeriesKey, after: Int64, through: Int64) throws(StoreReadError) -> [StoredQuote] {
        try readers.read { connection throws(PostgresError) -> [StoredQuote] in
            let rows = try connection.query("""
                SELECT \(try sides.columns(connection)) FROM pricehost_quotes WHERE series = \(PostgresSchema.series) AND ts > $4 AND ts <= $5
                ORDER BY ts, lag, amount, source
                """, Self.parameters(series) + [String(after), String(through)])
            return (0..<rows.count).map { Self.quote(series, rows, $0) }
        }
    }

    private static func parameters(_ series: SeriesKey) -> [String?] { [series.asset, series.currency, series.origin.key] }

    /// The 1-minute candles have a table of their own (day partitions); the longer ones share one, by span.
    private static func table(_ span: Int64) -> String { span == 1 ? "pricehost_candles_1m" : "pricehost_candles" }

    /// The span's condition (with the `AND` after it); the 1-minute table has no span column, and ignores the parameter
    /// through a condition that always holds, so that both queries take the same parameters.
    private static func span(_ span: Int64, parameter: Int) -> String {
        span == 1 ? "$\(parameter)::integer = 1 AND" : "span = $\(parameter)::integer AND"
    }

    private static func quote(_ series: SeriesKey, _ rows: PostgresRows, _ row: Int) -> StoredQuote {
        let timestamp = rows.int64(row, 0)
        return StoredQuote(series: series, amount: rows.text(row, 2), timestamp: timestamp, receivedAt: timestamp + rows.int64(row, 1),
                           source: rows.int64(row, 3) == 0 ? .stream : .rest,
                           bid: rows.isNull(row, 4) ? nil : rows.text(row, 4), ask: rows.isNull(row, 5) ? nil : rows.text(row, 5))
    }
}

/// Connections for reads, one per reader at a time; at most ``keep`` idle ones are kept. A connection that failed is
/// closed, not kept, and a read waits at most ``timeout`` for the server. After a failure to connect, reads fail at once with the same words for a second, so that a server
/// that is down does not make every history request wait for its own attempt.
final class PostgresReaderPool: Sendable {
    static let keep = 4
    /// The longest a read waits for the server: a history request then answers 503 rather than hold a thread.
    static let timeout: Duration = .seconds(5)

    private let library: LibPQ
    private let url: PostgresURL
    private let idle = Lock<[UncheckedBox<PostgresConnection>]>([])
    private let lastFailure = Lock<(at: ContinuousClock.Instant, message: String)?>(nil)

    init(library: LibPQ, url: PostgresURL) {
        self.library = library
        self.url = url
    }

    /// Runs `body` with a connection of its own. A kept connection the server has closed since (a restart) is
    /// dropped and the read tried again on a new one.
    func read<Value>(_ body: (PostgresConnection) throws(PostgresError) -> Value) throws(StoreReadError) -> Value {
        while true {
            do throws(PostgresError) {
                let (connection, wasKept) = try take()
                do throws(PostgresError) {
                    let value = try body(connection)
                    give(connection)
                    return value
                } catch {
                    if connection.isConnected, !error.isTransient { give(connection) }
                    // Bounded: each turn takes a kept connection out of the pool for good, and a new one ends the loop.
                    if wasKept, error.isTransient, !connection.timedOut { continue }
                    throw error
                }
            } catch {
                throw StoreReadError(description: "the quote store \(url.redacted) cannot be read: \(error.reason)")
            }
        }
    }

    private func take() throws(PostgresError) -> (PostgresConnection, kept: Bool) {
        if let kept = idle.withLock({ $0.popLast() }) { return (kept.value, true) }
        if let failure = lastFailure.withLock({ $0 }), ContinuousClock.now - failure.at < .seconds(1) {
            throw PostgresError(sqlState: nil, message: failure.message, isTransient: true)
        }
        do throws(PostgresError) {
            let connection = try PostgresConnection(library: library, url: url, timeout: Self.timeout)
            lastFailure.withLock { $0 = nil }
            return (connection, false)
        } catch {
            lastFailure.withLock { $0 = (ContinuousClock.now, error.message) }
            throw error
        }
    }

    private func give(_ connection: PostgresConnection) {
        guard connection.isConnected, connection.isIdle else { return }
        let box = UncheckedBox(connection)
        idle.withLock { if $0.count < Self.keep { $0.append(box) } }
    }
}
