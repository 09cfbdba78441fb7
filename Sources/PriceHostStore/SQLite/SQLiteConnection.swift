import Glibc

/// What SQLite said when a call failed: its primary code and its message.
package struct SQLiteError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The primary result code (the extended code's low byte).
    package var code: Int32
    package var message: String

    package var description: String { message }

    /// The disk is full (SQLITE_FULL), or the file is read-only, corrupt, or not a database: a state of
    /// the file that a retry will not change, unlike SQLITE_BUSY.
    var isFileState: Bool {
        [SQLiteCode.full, SQLiteCode.readOnly, SQLiteCode.corrupt, SQLiteCode.notADatabase, SQLiteCode.ioError,
         SQLiteCode.permission, SQLiteCode.cantOpen].contains(code)
    }
}

/// One SQLite connection, used by one thread at a time (opened with SQLITE_OPEN_NOMUTEX): the
/// store's writer has one, each reader one of a pool. Closed when released.
final class SQLiteConnection {
    let library: LibSQLite
    private let handle: OpaquePointer
    /// Prepared once each, by their text.
    private var statements: [String: SQLiteStatement] = [:]

    /// Opens `path`: read and write (creating the file when `create`), or read-only.
    init(library: LibSQLite, path: String, readOnly: Bool = false, create: Bool = true) throws(SQLiteError) {
        self.library = library
        var opened: OpaquePointer?
        let flags = (readOnly ? SQLiteCode.openReadOnly : SQLiteCode.openReadWrite | (create ? SQLiteCode.openCreate : 0)) | SQLiteCode.openNoMutex
        let status = library.open(path, &opened, flags, nil)
        guard status == SQLiteCode.ok, let opened else {
            let message = opened.flatMap { library.errorMessage($0) }.map { String(cString: $0) }
                ?? library.errorString(status).map { String(cString: $0) } ?? "code \(status)"
            if let opened { _ = library.close(opened) }
            throw SQLiteError(code: status & 0xFF, message: message)
        }
        handle = opened
        // Another process's checkpoint may hold the file briefly.
        _ = library.busyTimeout(handle, 2_000)
    }

    deinit {
        statements.removeAll()
        _ = library.close(handle)
    }

    /// Runs `sql`, one or more statements with no parameters and no rows wanted.
    func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let status = library.exec(handle, sql, nil, nil, &message)
        if status != SQLiteCode.ok {
            let text = message.map { String(cString: $0) } ?? lastError.message
            library.free(message)
            throw SQLiteError(code: status & 0xFF, message: text)
        }
    }

    /// The statement for `sql`, prepared on first use and reset for this one.
    func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let prepared = statements[sql] {
            prepared.reset()
            return prepared
        }
        var prepared: OpaquePointer?
        let status = library.prepare(handle, sql, -1, &prepared, nil)
        guard status == SQLiteCode.ok, let prepared else { throw SQLiteError(code: status & 0xFF, message: lastError.message) }
        let statement = SQLiteStatement(library: library, handle: prepared, connection: self)
        statements[sql] = statement
        return statement
    }

    /// The first column of the first row of `sql`, as an integer (0 when there is no row).
    func integer(_ sql: String) throws(SQLiteError) -> Int64 {
        let statement = try statement(sql)
        defer { statement.reset() }
        return try statement.step() ? statement.int64(0) : 0
    }

    /// The first column of the first row of `sql`, as text.
    func text(_ sql: String) throws(SQLiteError) -> String? {
        let statement = try statement(sql)
        defer { statement.reset() }
        return try statement.step() ? statement.text(0) : nil
    }

    /// Resets every statement: one left on a row would hold its read transaction (and a reader's
    /// snapshot) open after its work is done.
    func resetAll() {
        for statement in statements.values { statement.reset() }
    }

    /// The rows the last INSERT, UPDATE or DELETE changed.
    var changes: Int32 { library.changes(handle) }

    /// The connection's last error.
    var lastError: SQLiteError {
        SQLiteError(code: library.extendedErrorCode(handle) & 0xFF,
                    message: library.errorMessage(handle).map { String(cString: $0) } ?? "unknown SQLite error")
    }
}

/// A prepared statement of one ``SQLiteConnection``. Parameters count from 1, columns from 0, as in SQLite.
final class SQLiteStatement {
    private let library: LibSQLite
    private let handle: OpaquePointer
    private unowned let connection: SQLiteConnection

    fileprivate init(library: LibSQLite, handle: OpaquePointer, connection: SQLiteConnection) {
        self.library = library
        self.handle = handle
        self.connection = connection
    }

    deinit { _ = library.finalize(handle) }

    func reset() {
        _ = library.reset(handle)
    }

    func bind(_ index: Int32, _ value: Int64) {
        _ = library.bindInt64(handle, index, value)
    }

    func bind(_ index: Int32, _ value: String) {
        var value = value
        value.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { characters in
                _ = library.bindText(handle, index, characters.baseAddress, Int32(characters.count), SQLiteCode.transient)
            }
        }
    }

    func bindNull(_ index: Int32) {
        _ = library.bindNull(handle, index)
    }

    /// One step: true when a row is there to read, false when the statement is done.
    @discardableResult
    func step() throws(SQLiteError) -> Bool {
        switch library.step(handle) {
        case SQLiteCode.row: return true
        case SQLiteCode.done: return false
        default:
            let error = connection.lastError
            reset()
            throw error
        }
    }

    func int64(_ column: Int32) -> Int64 {
        library.columnInt64(handle, column)
    }

    func isNull(_ column: Int32) -> Bool {
        library.columnType(handle, column) == SQLiteCode.null
    }

    func text(_ column: Int32) -> String {
        guard let bytes = library.columnText(handle, column) else { return "" }
        let count = Int(library.columnBytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
