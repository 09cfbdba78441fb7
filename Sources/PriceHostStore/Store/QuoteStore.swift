import ConcurrencyHelpers
import FoundationEssentials
import Glibc
import PriceHostCore

/// The quotes a host keeps on disk, in SQLite: recorded without waiting (``record(_:)`` queues;
/// a thread of the store's own writes a batch at most every 100 ms), read by any thread
/// (candles, the price at a time, TWAP: ``QuoteStore+Reads``).
///
/// Writing never stops prices being served: a full disk, a read-only or corrupt file, or one that
/// is not SQLite makes the store ``Status/degraded(_:)``, says so in one line, drops what it
/// cannot write (counted), and tries again with the next batch.
package final class QuoteStore: Sendable {
    /// What `/readyz` and `history` say of the store.
    package enum Status: Sendable, Equatable {
        /// Writing and reading.
        case ok
        /// Open, but the last write failed, or the file cannot be written: why.
        case degraded(String)
    }

    /// Why a store could not be had at all.
    package enum OpenError: Error, CustomStringConvertible, Sendable, Equatable {
        /// libsqlite3 is missing: the host runs without a store.
        case libraryMissing(String)
        /// The file's directory cannot be made, or the file cannot be created there.
        case cannotCreate(path: String, reason: String)
        /// No thread could be started for the writer.
        case noThread

        package var description: String {
            switch self {
            case .libraryMissing(let reason): reason
            case .cannotCreate(let path, let reason): "cannot create the quote store \(path): \(reason)"
            case .noThread: "cannot start the quote store's writer thread: \(String(cString: strerror(errno)))"
            }
        }
    }

    /// Quotes waiting at most before the oldest are dropped: a second at 200,000 quotes/s.
    package static let queueCapacity = 200_000
    /// The longest a quote waits in the queue while the writer is idle: one transaction at most this often.
    package static let batchInterval: Duration = .milliseconds(100)

    package let settings: StoreSettings
    let backend: any StoreBackend
    let queue: StoreQueue
    let metrics = StoreMetrics()
    private let status = Lock(Status.ok)
    private let diagnostics: Diagnostics
    private let clock: any PriceClock
    /// Set once the writer's thread has ended (at once for a store opened only to read it).
    let ended = Lock(false)

    init(settings: StoreSettings, backend: any StoreBackend, diagnostics: Diagnostics, clock: any PriceClock, capacity: Int) {
        self.settings = settings
        self.backend = backend
        self.diagnostics = diagnostics
        self.clock = clock
        queue = StoreQueue(capacity: capacity)
    }

    /// Opens the store `settings` name and starts its writer. A file that cannot be written (read-only,
    /// corrupt, not SQLite) still gives a store: degraded, saying why, and read when it can be.
    /// - Throws: ``OpenError`` when there can be no store: no libsqlite3, or a path that cannot be created.
    package static func open(_ settings: StoreSettings, diagnostics: Diagnostics, clock: any PriceClock = SystemClock(),
                             library loaded: Result<LibSQLite, LibSQLite.LoadError> = LibSQLite.shared,
                             capacity: Int = QuoteStore.queueCapacity) throws(OpenError) -> QuoteStore {
        let library: LibSQLite
        switch loaded {
        case .success(let loaded): library = loaded
        case .failure(let error): throw .libraryMissing(error.description)
        }
        try makeDirectory(of: settings.path)
        let store = QuoteStore(settings: settings, backend: SQLiteBackend(library: library, path: settings.path), diagnostics: diagnostics,
                               clock: clock, capacity: capacity)
        var writer: (any StoreWriting)?
        do throws(StoreFailure) {
            writer = try store.backend.makeWriter()
        } catch where error.cannotCreate {
            throw .cannotCreate(path: settings.path, reason: error.reason)
        } catch {
            store.degrade(because: error)
        }
        let box = UncheckedBox(writer)
        guard DetachedThread.start({ store.runWriter(box.value) }) else { throw .noThread }
        return store
    }

    /// Makes the directories above `path` (as `mkdir -p` does), or says why not.
    private static func makeDirectory(of path: String) throws(OpenError) {
        var made = ""
        for component in FilePath.directory(of: path).split(separator: "/") {
            made += "/" + component
            if mkdir(made, 0o755) != 0, errno != EEXIST {
                throw .cannotCreate(path: path, reason: "cannot make \(made): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Queues `quote` for the writer; never waits on the disk.
    package func record(_ quote: StoredQuote) {
        queue.push(quote)
    }

    /// Waits until every quote recorded before the call is written (or dropped).
    package func flush() {
        queue.flush()
    }

    /// Writes what is queued, stops the writer and waits for it (at most `limit`): for the end of a run.
    package func close(within limit: Duration = .seconds(5)) {
        queue.close()
        let deadline = ContinuousClock.now + limit
        while !ended.withLock({ $0 }), ContinuousClock.now < deadline { usleep(2_000) }
    }

    /// The store's state now.
    package var currentStatus: Status { status.withLock { $0 } }

    /// The writer's thread: a batch when one is due, until the store closes.
    private func runWriter(_ writer: (any StoreWriting)?) {
        defer { ended.withLock { $0 = true } }
        var writer = writer
        var nextPrune = clock.wallNow
        let interval = UInt64(Self.batchInterval.components.attoseconds / 1_000_000_000)
        var due = StoreQueue.monotonicNanoseconds()
        while let batch = queue.take(due: due) {
            let started = clock.now
            if writer == nil { writer = reopen() }
            if let current = writer {
                do throws(StoreFailure) {
                    let written = try current.write(batch)
                    metrics.wrote(written, of: batch.count, in: clock.now - started)
                    recover()
                    if clock.wallNow >= nextPrune {
                        nextPrune = clock.wallNow.addingTimeInterval(3_600)
                        try prune(current)
                    }
                } catch {
                    metrics.dropped(batch.count)
                    degrade(because: error)
                }
            } else {
                metrics.dropped(batch.count)
            }
            queue.settle(batch.count)
            due = StoreQueue.monotonicNanoseconds() + interval
        }
        writer?.finish()
    }

    /// A writer for a file that could not be opened before (made writable, or replaced, since).
    private func reopen() -> (any StoreWriting)? {
        do throws(StoreFailure) {
            return try backend.makeWriter()
        } catch {
            degrade(because: error)
            return nil
        }
    }

    private func prune(_ writer: any StoreWriting) throws(StoreFailure) {
        let now = Int64((clock.wallNow.timeIntervalSince1970 * 1000).rounded())
        try writer.prune(rawBefore: now - Int64(settings.rawRetentionDays) * 86_400_000,
                         candlesBefore: now - Int64(settings.retentionDays) * 86_400_000)
    }

    /// Says once (per distinct reason) why writing failed, and marks the store degraded.
    func degrade(because error: StoreFailure) {
        let reason = error.reason
        let changed = status.withLock { status in
            defer { status = .degraded(reason) }
            return status != .degraded(reason)
        }
        if changed {
            diagnostics.warning("the quote store \(settings.path) cannot be written: \(reason); prices are still served, and quotes are not kept until it can")
        }
    }

    private func recover() {
        let was = status.withLock { status in
            defer { status = .ok }
            return status
        }
        if case .degraded = was { diagnostics.warning("the quote store \(settings.path) is written again") }
    }
}
