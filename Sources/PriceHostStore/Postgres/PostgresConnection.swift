import Glibc

/// What PostgreSQL or libpq said when a call failed: the SQLSTATE when the server gave one, the message
/// (the password scrubbed), and whether a retry may do better (the server is down, restarting, or the
/// connection was lost) or not (a statement the server refused).
package struct PostgresError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The five-character SQLSTATE; `nil` for a failure of the connection itself.
    package var sqlState: String?
    package var message: String
    /// The connection failed or was lost, or the server asked to try again: the work is retried, not dropped.
    package var isTransient: Bool

    package var description: String { message }

    /// SQLSTATE classes and codes worth a retry: connection exceptions (08), insufficient resources (53),
    /// operator intervention (57: shutting down, cannot connect now, a timeout), serialization and deadlock (40),
    /// a lock not available (55P03).
    static func isTransient(sqlState: String) -> Bool {
        ["08", "53", "57", "40"].contains(String(sqlState.prefix(2))) || sqlState == "55P03"
    }
}

/// One libpq connection, used by one thread at a time: the store's writer has one, each reader one of a pool.
/// Closed (`PQfinish`) when released.
final class PostgresConnection {
    /// How long connecting may take, in seconds, unless the URL says otherwise (`connect_timeout`).
    static let connectTimeout = 5

    let library: LibPQ
    let url: PostgresURL
    /// The longest a statement (or a batch's) may wait for the server's answer.
    let timeout: Duration
    let handle: OpaquePointer
    /// Set when a statement was given up on: what the server sends next would answer the wrong one.
    private(set) var timedOut = false

    /// Connects to `url`. Options the URL does not set: `connect_timeout` 5 s, TCP keepalives and a
    /// `tcp_user_timeout` of 10 s (so a server that vanished is noticed), `application_name=pricehost`, UTF-8.
    init(library: LibPQ, url: PostgresURL, timeout: Duration) throws(PostgresError) {
        self.library = library
        self.url = url
        self.timeout = timeout
        // Keywords are applied in order and the last wins: `dbname` comes last, so what the URL sets overrides these.
        let settings: [(String, String)] = [
            ("connect_timeout", String(Self.connectTimeout)), ("application_name", "pricehost"), ("client_encoding", "UTF8"),
            ("keepalives", "1"), ("keepalives_idle", "10"), ("keepalives_interval", "5"), ("keepalives_count", "2"),
            ("tcp_user_timeout", "10000"), ("dbname", url.text),
        ]
        let keywords = settings.map { strdup($0.0) }
        let values = settings.map { strdup($0.1) }
        defer { (keywords + values).forEach { free($0) } }
        let opened = (keywords.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { keywordList in
            (values.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { valueList in
                // expand_dbname 1: `dbname` is read as the URL, with every parameter in it.
                library.connectParams(keywordList.baseAddress, valueList.baseAddress, 1)
            }
        }
        guard let opened else { throw PostgresError(sqlState: nil, message: "libpq could not allocate a connection", isTransient: true) }
        guard library.status(opened) == PQCode.connectionOK else {
            let message = library.errorMessage(opened).map { String(cString: $0) } ?? "cannot connect"
            library.finish(opened)
            throw PostgresError(sqlState: nil, message: url.scrubbed(Self.oneLine(message)), isTransient: true)
        }
        handle = opened
        // Notices (a table that exists already, skipped) would go to stderr: the store says what matters itself.
        _ = library.setNoticeProcessor(handle, { _, _ in }, nil)
    }

    deinit { library.finish(handle) }

    /// Whether the connection is still good: false once the server closed it, it was lost, or it did not answer in time.
    var isConnected: Bool { !timedOut && library.status(handle) == PQCode.connectionOK }

    /// Whether the connection is outside any transaction (a reader left in one would hold its snapshot).
    var isIdle: Bool { library.transactionStatus(handle) == PQCode.transactionIdle }

    /// Runs `sql`, which may hold several statements and no parameters (the schema, BEGIN, COMMIT).
    func execute(_ sql: String) throws(PostgresError) {
        guard library.sendQuery(handle, sql) == 1 else { throw lastError(sqlState: nil) }
        _ = try results()
    }

    /// Runs the one statement `sql` with `parameters` ($1, $2, … as text; `nil` is NULL) and returns its rows, as text.
    @discardableResult
    func query(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> PostgresRows {
        let copies = parameters.map { value -> UnsafeMutablePointer<CChar>? in value.flatMap { strdup($0) } }
        defer { copies.forEach { free($0) } }
        let sent = copies.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer { values in
            library.sendQueryParams(handle, sql, Int32(values.count), nil, values.baseAddress, nil, nil, 0)
        }
        guard sent == 1 else { throw lastError(sqlState: nil) }
        return try results()
    }

    /// Waits (at most ``timeout`` in all) for every result of what was sent; the last one's rows, or the first error.
    /// A server that does not answer in time (stopped, or stuck behind a lock) is given up on: the connection is
    /// dropped, so that no thread of serve waits on it for longer.
    func results() throws(PostgresError) -> PostgresRows {
        let deadline = ContinuousClock.now + timeout
        var kept: PostgresRows?
        var failure: PostgresError?
        while true {
            guard let result = try nextResult(by: deadline) else { break }
            do throws(PostgresError) {
                kept = try check(result)
            } catch {
                if failure == nil { failure = error }
            }
        }
        if let failure { throw failure }
        guard let kept else { throw lastError(sqlState: nil) }
        return kept
    }

    /// The next result of what was sent, once it has arrived (by `deadline`); `nil` when there are no more.
    func nextResult(by deadline: ContinuousClock.Instant) throws(PostgresError) -> OpaquePointer? {
        while library.isBusy(handle) != 0 {
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                timedOut = true
                throw PostgresError(sqlState: nil, message: "the server did not answer within \(timeout)", isTransient: true)
            }
            var ready = pollfd(fd: library.socket(handle), events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000 + 1, 1_000))
            _ = poll(&ready, 1, milliseconds)
            guard library.consumeInput(handle) == 1 else { throw lastError(sqlState: nil) }
        }
        return library.getResult(handle)
    }

    func check(_ result: OpaquePointer) throws(PostgresError) -> PostgresRows {
        let status = library.resultStatus(result)
        guard status == PQCode.commandOK || status == PQCode.tuplesOK else {
            let sqlState = library.resultErrorField(result, PQCode.diagnosticSQLState).map { String(cString: $0) }
            let message = library.resultErrorMessage(result).map { String(cString: $0) } ?? ""
            library.clear(result)
            var error = lastError(sqlState: sqlState)
            if !message.isEmpty { error.message = url.scrubbed(Self.oneLine(message)) }
            throw error
        }
        return PostgresRows(library: library, handle: result)
    }

    func lastError(sqlState: String?) -> PostgresError {
        let message = library.errorMessage(handle).map { String(cString: $0) } ?? "unknown libpq error"
        let transient = !isConnected || sqlState.map(PostgresError.isTransient(sqlState:)) ?? true
        return PostgresError(sqlState: sqlState, message: url.scrubbed(Self.oneLine(message)), isTransient: transient)
    }

    /// libpq's messages end in a newline and may span lines ("connection to server … failed: …\n\tIs the server running…"):
    /// one line, without the `ERROR:  ` prefix the server's own messages carry.
    static func oneLine(_ message: String) -> String {
        var lines = message.split(whereSeparator: \.isNewline).map { $0.trimmingPrefix(while: \.isWhitespace) }.filter { !$0.isEmpty }
        if let first = lines.first, first.hasPrefix("ERROR:") { lines[0] = first.dropFirst("ERROR:".count).trimmingPrefix(while: \.isWhitespace) }
        return lines.joined(separator: "; ")
    }
}

/// The rows of one result, read as text; cleared (`PQclear`) when released.
final class PostgresRows {
    private let library: LibPQ
    private let handle: OpaquePointer

    fileprivate init(library: LibPQ, handle: OpaquePointer) {
        self.library = library
        self.handle = handle
    }

    deinit { library.clear(handle) }

    var count: Int { Int(library.ntuples(handle)) }

    func isNull(_ row: Int, _ column: Int) -> Bool { library.getIsNull(handle, Int32(row), Int32(column)) != 0 }

    func text(_ row: Int, _ column: Int) -> String {
        guard let value = library.getValue(handle, Int32(row), Int32(column)) else { return "" }
        let length = Int(library.getLength(handle, Int32(row), Int32(column)))
        return value.withMemoryRebound(to: UInt8.self, capacity: length) { String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self) }
    }

    func int64(_ row: Int, _ column: Int) -> Int64 { Int64(text(row, column)) ?? 0 }
}
