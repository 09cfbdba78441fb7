import ConcurrencyHelpers

/// Read-only connections to the store's file, one per reader at a time: WAL lets them read while the writer writes.
/// At most ``keep`` idle ones are kept; a burst of readers opens more and closes them after.
final class ReaderPool: Sendable {
    static let keep = 4

    private let library: LibSQLite
    private let path: String
    /// The idle connections, each with the reopening it was opened after, and how many reopenings there were.
    private let pool = Lock(Pool())
    /// Held while a reader connection opens, and while the writer reopens the file (``reopening(_:)``): no reader
    /// maps the file's shared memory between the idle readers' close and the writer's open.
    private let opening = Lock(0)

    private struct Pool {
        var idle: [(connection: UncheckedBox<SQLiteConnection>, generation: Int)] = []
        var generation = 0
    }

    init(library: LibSQLite, path: String) {
        self.library = library
        self.path = path
    }

    /// Runs `body` with a connection of its own.
    func read<Value>(_ body: (SQLiteConnection) throws(SQLiteError) -> Value) throws(StoreReadError) -> Value {
        do throws(SQLiteError) {
            let kept = pool.withLock { pool in pool.idle.popLast().map { ($0.connection.value, $0.generation) } }
            let connection: SQLiteConnection, born: Int
            if let kept {
                (connection, born) = kept
            } else {
                let opened = opening.withLock { _ in
                    (pool.withLock { $0.generation },
                     Result { () throws(SQLiteError) in
                         let connection = try SQLiteConnection(library: library, path: path, readOnly: true)
                         try StoreSchema.requireKnown(connection)
                         return connection
                     })
                }
                born = opened.0
                connection = try opened.1.get()
            }
            defer {
                connection.resetAll()
                let box = UncheckedBox(connection)
                // One opened before a reopening holds the shared memory as it was mapped then: closed, not kept.
                pool.withLock { pool in
                    if pool.generation == born, pool.idle.count < Self.keep { pool.idle.append((box, born)) }
                }
            }
            return try body(connection)
        } catch {
            throw StoreReadError(description: "the quote store \(path) cannot be read: " + error.reason)
        }
    }

    /// Runs `body` (the writer's open) after closing the idle connections, with no reader connection opening
    /// meanwhile: while one is open, SQLite keeps the file's shared memory as it first mapped it (read-only, for a
    /// file that was), and a writer opened after the file is made writable would still fail. One busy now is closed
    /// when its reader is done, not kept. A reader that must open a connection waits for the writer's open (about a
    /// millisecond; as long as SQLite's busy timeout, 2 s, when another process holds the file's write lock).
    func reopening<Value>(_ body: () -> Value) -> Value {
        opening.withLock { _ in
            closeIdle()
            return body()
        }
    }

    /// Starts a new generation and closes the idle connections (when the list taken out is released, by this call's end).
    private func closeIdle() {
        let closing = pool.withLock { pool in
            pool.generation += 1
            defer { pool.idle.removeAll() }
            return pool.idle
        }
        _ = closing
    }
}
