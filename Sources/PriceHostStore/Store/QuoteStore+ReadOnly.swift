import Glibc
import PriceHostCore

extension QuoteStore {
    /// Why a store could not be opened to read it.
    package enum ReadOnlyOpenError: Error, CustomStringConvertible, Sendable, Equatable {
        /// libsqlite3 is missing.
        case libraryMissing(String)
        /// There is no file at the path: nothing has been recorded there yet.
        case noFile(path: String)

        package var description: String {
            switch self {
            case .libraryMissing(let reason): reason
            case .noFile(let path): "no quote store at \(path)"
            }
        }
    }

    /// Opens the store `settings` name only to read it (`pricehost history`): no writer thread is started, and
    /// neither the file nor its directory is made. A file that cannot be read (corrupt, not SQLite) still gives a
    /// store; its reads answer 503 saying why.
    ///
    /// ``record(_:)`` on it keeps nothing, and ``close(within:)`` returns at once.
    /// - Throws: ``ReadOnlyOpenError``: no libsqlite3, or no file at the path.
    package static func openForReading(_ settings: StoreSettings, diagnostics: Diagnostics = Diagnostics(threshold: .error),
                                       library loaded: Result<LibSQLite, LibSQLite.LoadError> = LibSQLite.shared) throws(ReadOnlyOpenError) -> QuoteStore {
        let library: LibSQLite
        switch loaded {
        case .success(let loaded): library = loaded
        case .failure(let error): throw .libraryMissing(error.description)
        }
        // SQLite would make the file if asked to read-write; read-only it refuses, but says less than this.
        guard access(settings.path, F_OK) == 0 else { throw .noFile(path: settings.path) }
        let store = QuoteStore(settings: settings, backend: SQLiteBackend(library: library, path: settings.path), diagnostics: diagnostics,
                               clock: SystemClock(), capacity: 1)
        // No writer: the queue takes nothing, and there is no thread for close() to wait for.
        store.queue.close()
        store.ended.withLock { $0 = true }
        return store
    }
}
