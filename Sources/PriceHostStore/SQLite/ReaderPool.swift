import ConcurrencyHelpers

/// Read-only connections to the store's file, one per reader at a time: WAL lets them read while the writer writes.
/// At most ``keep`` idle ones are kept; a burst of readers opens more and closes them after.
final class ReaderPool: Sendable {
    static let keep = 4

    private let library: LibSQLite
    private let path: String
    private let idle = Lock<[UncheckedBox<SQLiteConnection>]>([])
    /// Held while a reader connection opens, and while the writer reopens the file (``reopening(_:)``): no reader
    /// maps the file's shared memory between the idle readers' close and the writer's open.
    private let opening = Lock(0)
    /// Bumped by each reopening: a connection opened before it is closed when its reader is done, not kept.
    private let generation = Lock(0)

    init(library: LibSQLite, path: String) {
        self.library = library
        self.path = path
    }

    /// Runs `body` with a connection of its own.
    func read<Value>(_ body: (SQLiteConnection) throws(SQLiteError) -> Value) throws(StoreReadError) -> Value {
        do throws(SQLiteError) {
            let connection: SQLiteConnection
            let born = generation.withLock { $0 }
            if let kept = idle.withLock({ $0.popLast() }) {
                connection = kept.value
            } else {
                let opened = opening.withLock { _ in Result { () throws(SQLiteError) in try SQLiteConnection(library: library, path: path, readOnly: true) } }
                connection = try opened.get()
            }
            defer {
                connection.resetAll()
                let box = UncheckedBox(connection)
                // One from before a reopening holds the shared memory as it was mapped then: closed, not kept.
                if generation.withLock({ $0 }) == born { idle.withLock { if $0.count < Self.keep { $0.append(box) } } }
            }
            return try body(connection)
        } catch {
            throw StoreReadError(description: "the quote store \(path) cannot be read: " + error.reason)
        }
    }

    /// Runs `body` (the writer's open) with no reader connection opening meanwhile, after closing the idle ones: while
    /// one is open, SQLite keeps the file's shared memory as it first mapped it (read-only, for a file that was), and a
    /// writer opened after the file is made writable would still fail. One busy now is closed when its reader is done.
    func reopening<Value>(_ body: () -> Value) -> Value {
        opening.withLock { _ in
            generation.withLock { $0 += 1 }
            closeIdle()
            return body()
        }
    }

    /// Closes the idle connections (when the array taken out is released, at the end of this call).
    private func closeIdle() {
        let closing = idle.withLock { idle in
            defer { idle.removeAll() }
            return idle
        }
        _ = closing
    }
}
