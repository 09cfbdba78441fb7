import Glibc
import PriceHostCore

extension QuoteStore {
    /// Why a store could not be opened to read it.
    package enum ReadOnlyOpenError: Error, CustomStringConvertible, Sendable, Equatable {
        /// libsqlite3 (or libpq) is missing.
        case libraryMissing(String)
        /// There is no file at the path (nothing has been recorded there yet), or an empty one.
        case noFile(path: String)
        /// The path names a directory: no store can be made there (for `serve` and `watch --record`, a config error).
        case directory(path: String)

        package var description: String {
            switch self {
            case .libraryMissing(let reason): reason
            case .noFile(let path): "no quote store at \(path)"
            case .directory(let path): "cannot read the quote store \(path): it is a directory, not a file"
            }
        }
    }

    /// Opens the store `settings` name only to read it (`pricehost history`): no writer thread is started, and
    /// neither the file nor its directory is made (nor, in PostgreSQL, any table). A file that cannot be read
    /// (corrupt, not SQLite), or a server that cannot be reached, still gives a store; its reads fail saying why.
    ///
    /// ``record(_:)`` on it keeps nothing, and ``close(within:)`` returns at once.
    /// - Throws: ``ReadOnlyOpenError``: no libsqlite3 (or libpq), no file at the path, or a directory there.
    package static func openForReading(_ settings: StoreSettings, diagnostics: Diagnostics = Diagnostics(threshold: .error),
                                       library loaded: Result<LibSQLite, LibSQLite.LoadError> = LibSQLite.shared,
                                       postgresLibrary: Result<LibPQ, LibPQ.LoadError> = LibPQ.shared) throws(ReadOnlyOpenError) -> QuoteStore {
        let backend: any StoreBackend
        switch Self.backend(for: settings.location, sqlite: loaded, postgres: postgresLibrary) {
        case .success(let made): backend = made
        case .failure(let error): throw .libraryMissing(error.description)
        }
        // SQLite would make the file if asked to read-write; read-only it refuses, but says less than this.
        // An empty file is no store either: SQLite would read it as a database with no tables.
        if case .sqlite(let path) = settings.location {
            if SQLiteBackend.isDirectory(path) { throw .directory(path: path) }
            if access(path, F_OK) != 0 || SQLiteBackend.size(of: path) == 0 { throw .noFile(path: path) }
        }
        let store = QuoteStore(settings: settings, backend: backend, diagnostics: diagnostics, clock: SystemClock(), capacity: 1)
        // No writer: the queue takes nothing, and there is no thread for close() to wait for.
        store.queue.close()
        store.ended.withLock { $0 = true }
        return store
    }
}
