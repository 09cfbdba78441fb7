import ConcurrencyHelpers

/// Read-only connections to the store's file, one per reader at a time: WAL lets them read while the writer writes.
/// At most ``keep`` idle ones are kept; a burst of readers opens more and closes them after.
final class ReaderPool: Sendable {
    static let keep = 4

    private let library: LibSQLite
    private let path: String
    private let idle = Lock<[UncheckedBox<SQLiteConnection>]>([])

    init(library: LibSQLite, path: String) {
        self.library = library
        self.path = path
    }

    /// Runs `body` with a connection of its own.
    func read<Value>(_ body: (SQLiteConnection) throws(SQLiteError) -> Value) throws(StoreReadError) -> Value {
        do throws(SQLiteError) {
            let connection: SQLiteConnection
            if let kept = idle.withLock({ $0.popLast() }) {
                connection = kept.value
            } else {
                connection = try SQLiteConnection(library: library, path: path, readOnly: true)
            }
            defer {
                connection.resetAll()
                let box = UncheckedBox(connection)
                idle.withLock { if $0.count < Self.keep { $0.append(box) } }
            }
            return try body(connection)
        } catch {
            throw StoreReadError(description: "the quote store \(path) cannot be read: " + error.reason)
        }
    }

    /// Closes the idle connections: while one is open, SQLite keeps the file's shared memory as it first mapped it
    /// (read-only, for a file that was), and a writer opened after the file is made writable would still fail.
    func closeIdle() {
        let closing = idle.withLock { idle in
            defer { idle.removeAll() }
            return idle
        }
        _ = closing
    }
}
