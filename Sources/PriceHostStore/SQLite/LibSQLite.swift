import PriceHostCore

/// SQLite's functions, found with `dlsym` in the library `dlopen` loaded: the host links no
/// SQLite. `libsqlite3.so.0` is on every Linux machine; `PRICEHOST_LIBSQLITE` names another file
/// or soname to load instead.
///
/// Every function used here is in SQLite 3.7.17 and later; the store asks for 3.22 or later
/// (WAL, `ON CONFLICT … DO UPDATE` needs 3.24: checked by ``load(_:)``).
package struct LibSQLite: @unchecked Sendable {
    // @unchecked: C function pointers into a library that is never unloaded. SQLite is built
    // threadsafe on every distribution; each connection is used by one thread at a time here.

    typealias Open = @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?, Int32, UnsafePointer<CChar>?) -> Int32
    typealias Close = @convention(c) (OpaquePointer?) -> Int32
    typealias Exec = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafeRawPointer?, UnsafeRawPointer?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32
    typealias Prepare = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?, UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32
    typealias StatementCall = @convention(c) (OpaquePointer?) -> Int32
    // The destructor argument is a function pointer or SQLITE_TRANSIENT, (void *)-1: passed as an integer the size of a pointer.
    typealias BindText = @convention(c) (OpaquePointer?, Int32, UnsafePointer<CChar>?, Int32, Int) -> Int32
    typealias BindInt64 = @convention(c) (OpaquePointer?, Int32, Int64) -> Int32
    typealias ColumnText = @convention(c) (OpaquePointer?, Int32) -> UnsafePointer<UInt8>?
    typealias ColumnInt64 = @convention(c) (OpaquePointer?, Int32) -> Int64
    typealias ColumnInt = @convention(c) (OpaquePointer?, Int32) -> Int32
    typealias ErrorMessage = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    typealias ErrorString = @convention(c) (Int32) -> UnsafePointer<CChar>?
    typealias BusyTimeout = @convention(c) (OpaquePointer?, Int32) -> Int32
    typealias Version = @convention(c) () -> Int32
    typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void

    let open: Open
    let close: Close
    let exec: Exec
    let prepare: Prepare
    let step: StatementCall
    let reset: StatementCall
    let finalize: StatementCall
    let clearBindings: StatementCall
    let bindText: BindText
    let bindInt64: BindInt64
    let bindNull: @convention(c) (OpaquePointer?, Int32) -> Int32
    let columnText: ColumnText
    let columnBytes: ColumnInt
    let columnInt64: ColumnInt64
    let columnType: ColumnInt
    let errorMessage: ErrorMessage
    let errorString: ErrorString
    let extendedErrorCode: @convention(c) (OpaquePointer?) -> Int32
    let busyTimeout: BusyTimeout
    let changes: @convention(c) (OpaquePointer?) -> Int32
    let free: Free

    /// The library, and what its errors say.
    static let kind = SystemLibrary.Kind(
        soname: "libsqlite3.so.0", variable: "PRICEHOST_LIBSQLITE", purpose: "the library the quote store is kept with",
        install: "Debian and Ubuntu: apt-get install libsqlite3-0; Fedora: dnf install sqlite-libs", needed: "SQLite 3.24 or later")

    /// Why SQLite could not be loaded: the line names the library and how to install it.
    package typealias LoadError = SystemLibrary.LoadError

    /// The library loaded once per process, or why it could not be: `PRICEHOST_LIBSQLITE` or `libsqlite3.so.0`.
    package static let shared = Result<LibSQLite, LoadError> { () throws(LoadError) in try load(kind.chosenName) }

    /// Loads SQLite from `name`, a soname or a path.
    package static func load(_ name: String) throws(LoadError) -> LibSQLite {
        let library = try SystemLibrary(name, kind)
        let version = try library.required("sqlite3_libversion_number", as: Version.self)()
        guard version >= 3_024_000 else {
            throw library.failure("it is SQLite \(version / 1_000_000).\(version / 1_000 % 1_000), and 3.24 or later is needed")
        }
        return LibSQLite(
            open: try library.required("sqlite3_open_v2", as: Open.self),
            close: try library.required("sqlite3_close_v2", as: Close.self),
            exec: try library.required("sqlite3_exec", as: Exec.self),
            prepare: try library.required("sqlite3_prepare_v2", as: Prepare.self),
            step: try library.required("sqlite3_step", as: StatementCall.self),
            reset: try library.required("sqlite3_reset", as: StatementCall.self),
            finalize: try library.required("sqlite3_finalize", as: StatementCall.self),
            clearBindings: try library.required("sqlite3_clear_bindings", as: StatementCall.self),
            bindText: try library.required("sqlite3_bind_text", as: BindText.self),
            bindInt64: try library.required("sqlite3_bind_int64", as: BindInt64.self),
            bindNull: try library.required("sqlite3_bind_null", as: (@convention(c) (OpaquePointer?, Int32) -> Int32).self),
            columnText: try library.required("sqlite3_column_text", as: ColumnText.self),
            columnBytes: try library.required("sqlite3_column_bytes", as: ColumnInt.self),
            columnInt64: try library.required("sqlite3_column_int64", as: ColumnInt64.self),
            columnType: try library.required("sqlite3_column_type", as: ColumnInt.self),
            errorMessage: try library.required("sqlite3_errmsg", as: ErrorMessage.self),
            errorString: try library.required("sqlite3_errstr", as: ErrorString.self),
            extendedErrorCode: try library.required("sqlite3_extended_errcode", as: (@convention(c) (OpaquePointer?) -> Int32).self),
            busyTimeout: try library.required("sqlite3_busy_timeout", as: BusyTimeout.self),
            changes: try library.required("sqlite3_changes", as: (@convention(c) (OpaquePointer?) -> Int32).self),
            free: try library.required("sqlite3_free", as: Free.self))
    }
}

/// The result codes and flags the store tells apart (sqlite3.h; stable since SQLite 3.0).
enum SQLiteCode {
    static let ok: Int32 = 0
    static let error: Int32 = 1
    static let permission: Int32 = 3
    static let busy: Int32 = 5
    static let locked: Int32 = 6
    static let readOnly: Int32 = 8
    static let ioError: Int32 = 10
    static let corrupt: Int32 = 11
    static let full: Int32 = 13
    static let cantOpen: Int32 = 14
    static let notADatabase: Int32 = 26
    static let row: Int32 = 100
    static let done: Int32 = 101

    static let openReadOnly: Int32 = 0x0000_0001
    static let openReadWrite: Int32 = 0x0000_0002
    static let openCreate: Int32 = 0x0000_0004
    static let openNoMutex: Int32 = 0x0000_8000

    static let null: Int32 = 5
    /// SQLITE_TRANSIENT: SQLite copies the bound text before the call returns.
    static let transient = -1
}
