import Glibc

extension PostgresConnection {
    /// Runs `COPY … FROM STDIN` (`sql`) with `rows`, its text format, as the input: the fastest way rows reach a
    /// table (the server inserts them in bulk). Throws the server's error; the transaction it ran in is then
    /// aborted (a unique violation is `23505`).
    func copy(_ sql: String, rows: [UInt8]) throws(PostgresError) {
        let deadline = ContinuousClock.now + timeout
        guard library.sendQuery(handle, sql) == 1 else { throw lastError(sqlState: nil) }
        guard let started = try nextResult(by: deadline) else { throw lastError(sqlState: nil) }
        guard library.resultStatus(started) == PQCode.copyIn else {
            // Refused before any row (no such table, no right to it): the error, and the results after it.
            defer { while let rest = try? nextResult(by: deadline) { library.clear(rest) } }
            _ = try check(started)
            throw PostgresError(sqlState: nil, message: "the server did not take COPY's rows", isTransient: false)
        }
        library.clear(started)
        // The connection blocks while sending; a server that stops reading is noticed by tcp_user_timeout (10 s).
        let chunk = 1 << 16
        var sent = 0
        var failed = false
        rows.withUnsafeBytes { bytes in
            while sent < bytes.count, !failed {
                let count = min(chunk, bytes.count - sent)
                let base = bytes.baseAddress.map { ($0 + sent).assumingMemoryBound(to: CChar.self) }
                failed = library.putCopyData(handle, base, Int32(count)) != 1
                sent += count
            }
        }
        guard !failed, library.putCopyEnd(handle, nil) == 1 else { throw lastError(sqlState: nil) }
        _ = try results()
    }

    /// `text` in COPY's text format for one column: a backslash, tab, newline or carriage return escaped.
    static func appendCopyField(_ text: String, to rows: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): rows += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\t"): rows += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case UInt8(ascii: "\n"): rows += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): rows += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            default: rows.append(byte)
            }
        }
    }
}
