import PriceHostCore

/// libpq's functions, found with `dlsym` in the library `dlopen` loaded: the host links no
/// PostgreSQL client. `libpq.so.5` is the soname of every libpq since PostgreSQL 8.2;
/// `PRICEHOST_LIBPQ` names another file or soname to load instead.
///
/// Every function used here is in libpq 10 and later; the store asks for 12 (`tcp_user_timeout`). A `PGconn` is used by one thread at a time
/// (libpq is thread-safe across connections, not within one); a `PGresult` is cleared by whoever got it.
package struct LibPQ: @unchecked Sendable {
    // @unchecked: C function pointers into a library that is never unloaded.

    typealias ConnectParams = @convention(c) (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<UnsafePointer<CChar>?>?, Int32) -> OpaquePointer?
    typealias ConnectionCall = @convention(c) (OpaquePointer?) -> Int32
    typealias ConnectionText = @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>?
    typealias Finish = @convention(c) (OpaquePointer?) -> Void
    typealias SendQueryParams = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafePointer<UInt32>?,
                                                 UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?, Int32) -> Int32
    typealias ResultCall = @convention(c) (OpaquePointer?) -> Int32
    typealias ResultText = @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>?
    typealias ResultField = @convention(c) (OpaquePointer?, Int32) -> UnsafeMutablePointer<CChar>?
    typealias GetValue = @convention(c) (OpaquePointer?, Int32, Int32) -> UnsafeMutablePointer<CChar>?
    typealias GetCell = @convention(c) (OpaquePointer?, Int32, Int32) -> Int32
    typealias Clear = @convention(c) (OpaquePointer?) -> Void
    typealias NoticeProcessor = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void
    typealias SetNoticeProcessor = @convention(c) (OpaquePointer?, NoticeProcessor?, UnsafeMutableRawPointer?) -> NoticeProcessor?

    let connectParams: ConnectParams
    let status: ConnectionCall
    let errorMessage: ConnectionText
    let finish: Finish
    let sendQuery: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32
    let sendQueryParams: SendQueryParams
    let getResult: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let isBusy: ConnectionCall
    let consumeInput: ConnectionCall
    let socket: ConnectionCall
    let resultStatus: ResultCall
    let resultErrorMessage: ResultText
    let resultErrorField: ResultField
    let ntuples: ResultCall
    let getValue: GetValue
    let getIsNull: GetCell
    let getLength: GetCell
    let clear: Clear
    let setNoticeProcessor: SetNoticeProcessor
    let transactionStatus: ConnectionCall
    /// `COPY … FROM STDIN`'s input: a chunk, and its end (`nil`: no error).
    let putCopyData: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32
    let putCopyEnd: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32

    /// The library, and what its errors say.
    static let kind = SystemLibrary.Kind(
        soname: "libpq.so.5", variable: "PRICEHOST_LIBPQ", purpose: "the PostgreSQL client library the quote store is kept with",
        install: "Debian and Ubuntu: apt-get install libpq5; Fedora: dnf install libpq", needed: "libpq 12 or later")

    /// Why libpq could not be loaded: the line names the library and how to install it.
    package typealias LoadError = SystemLibrary.LoadError

    /// The library loaded once per process, or why it could not be: `PRICEHOST_LIBPQ` or `libpq.so.5`.
    package static let shared = Result<LibPQ, LoadError> { () throws(LoadError) in try load(kind.chosenName) }

    /// Loads libpq from `name`, a soname or a path.
    package static func load(_ name: String) throws(LoadError) -> LibPQ {
        let library = try SystemLibrary(name, kind)
        let version = try library.required("PQlibVersion", as: (@convention(c) () -> Int32).self)()
        // 12 for the tcp_user_timeout connection keyword.
        guard version >= 120_000 else {
            throw library.failure("it is libpq \(version / 10_000), and 12 or later is needed")
        }
        return LibPQ(
            connectParams: try library.required("PQconnectdbParams", as: ConnectParams.self),
            status: try library.required("PQstatus", as: ConnectionCall.self),
            errorMessage: try library.required("PQerrorMessage", as: ConnectionText.self),
            finish: try library.required("PQfinish", as: Finish.self),
            sendQuery: try library.required("PQsendQuery", as: (@convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32).self),
            sendQueryParams: try library.required("PQsendQueryParams", as: SendQueryParams.self),
            getResult: try library.required("PQgetResult", as: (@convention(c) (OpaquePointer?) -> OpaquePointer?).self),
            isBusy: try library.required("PQisBusy", as: ConnectionCall.self),
            consumeInput: try library.required("PQconsumeInput", as: ConnectionCall.self),
            socket: try library.required("PQsocket", as: ConnectionCall.self),
            resultStatus: try library.required("PQresultStatus", as: ResultCall.self),
            resultErrorMessage: try library.required("PQresultErrorMessage", as: ResultText.self),
            resultErrorField: try library.required("PQresultErrorField", as: ResultField.self),
            ntuples: try library.required("PQntuples", as: ResultCall.self),
            getValue: try library.required("PQgetvalue", as: GetValue.self),
            getIsNull: try library.required("PQgetisnull", as: GetCell.self),
            getLength: try library.required("PQgetlength", as: GetCell.self),
            clear: try library.required("PQclear", as: Clear.self),
            setNoticeProcessor: try library.required("PQsetNoticeProcessor", as: SetNoticeProcessor.self),
            transactionStatus: try library.required("PQtransactionStatus", as: ConnectionCall.self),
            putCopyData: try library.required("PQputCopyData", as: (@convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32).self),
            putCopyEnd: try library.required("PQputCopyEnd", as: (@convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32).self))
    }
}

/// The values of libpq-fe.h's enums and postgres_ext.h's field codes the store tells apart (stable since libpq 7.4).
enum PQCode {
    /// ConnStatusType's CONNECTION_OK.
    static let connectionOK: Int32 = 0
    /// ExecStatusType.
    static let commandOK: Int32 = 1
    static let tuplesOK: Int32 = 2
    /// PGRES_COPY_IN: the server waits for `COPY … FROM STDIN`'s rows.
    static let copyIn: Int32 = 4
    /// PG_DIAG_SQLSTATE: the five-character SQLSTATE of an error.
    static let diagnosticSQLState = Int32(UInt8(ascii: "C"))
    /// PGTransactionStatusType's PQTRANS_IDLE: connected and outside a transaction.
    static let transactionIdle: Int32 = 0
}
