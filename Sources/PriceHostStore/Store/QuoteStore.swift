import ConcurrencyHelpers
import FoundationEssentials
import Glibc
import PriceHostCore

/// The quotes a host keeps, in SQLite or PostgreSQL: recorded without waiting (``record(_:)`` queues;
/// a thread of the store's own writes a batch at most every 100 ms), read by any thread
/// (candles, the price at a time, TWAP: ``QuoteStore+Reads``).
///
/// Writing never stops prices being served: a full disk, a read-only or corrupt file, or one that
/// is not SQLite makes the store ``Status/degraded(_:)``, says so in one line, drops what it
/// cannot write (counted), and tries again with the next batch. A PostgreSQL server that is down or
/// unreachable also makes it degraded, but its batches wait in the bounded queue and are tried again,
/// from 100 ms to 5 s apart, until it answers.
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
        /// libsqlite3 (or libpq) is missing: the host runs without a store.
        case libraryMissing(String)
        /// The file's directory cannot be made, or the file cannot be created there.
        case cannotCreate(path: String, reason: String)
        /// The file cannot be written for a reason that lasts (read-only, corrupt, not SQLite, a newer layout): only
        /// for an `open` asked to refuse such a store (`watch --record`); `serve` runs with it degraded instead.
        case cannotWrite(path: String, reason: String)
        /// No thread could be started for the writer.
        case noThread

        package var description: String {
            switch self {
            case .libraryMissing(let reason): reason
            case .cannotCreate(let path, let reason): "cannot create the quote store \(path): \(reason)"
            case .cannotWrite(let path, let reason): "the quote store \(path) cannot be written: \(reason)"
            case .noThread: "cannot start the quote store's writer thread: \(String(cString: strerror(errno)))"
            }
        }
    }

    /// Quotes waiting at most before the oldest are dropped: a second at 200,000 quotes/s.
    package static let queueCapacity = 200_000
    /// The longest a quote waits in the queue while the writer is idle: one transaction at most this often,
    /// to a file as to a server. A batch is a burst on a core (at 10,000 quotes/s, 1,000 quotes, about 3 ms),
    /// which the writer spreads out with rests (``BatchTurn``); fewer, larger batches cost the writer less per
    /// quote (a file's were every 20 ms until the writer gave its core up within a batch: BENCHMARKS.md,
    /// "Recording a stream costs less").
    package static let batchInterval: Duration = .milliseconds(100)
    /// The first and the longest pause before a server that failed is tried again (doubling between), in nanoseconds.
    static let retryPauses: (first: UInt64, longest: UInt64) = (100_000_000, 5_000_000_000)
    /// How long a writer that could not be had for a lasting reason (a newer layout, a corrupt file) is not asked for again.
    static let reopenInterval: Duration = .seconds(1)

    package let settings: StoreSettings
    let backend: any StoreBackend
    let queue: StoreQueue
    let metrics = StoreMetrics()
    private let status = Lock(Status.ok)
    private let diagnostics: Diagnostics
    /// What a warning that the store cannot be written says goes on meanwhile: `serve`'s prices, or a recorder's run.
    private let goingOn: String
    static let pricesServed = "prices are still served"
    private let clock: any PriceClock
    /// Set once the writer's thread has ended (at once for a store opened only to read it).
    let ended = Lock(false)

    init(settings: StoreSettings, backend: any StoreBackend, diagnostics: Diagnostics, clock: any PriceClock, capacity: Int,
         goingOn: String = QuoteStore.pricesServed) {
        self.goingOn = goingOn
        self.settings = settings
        self.backend = backend
        self.diagnostics = diagnostics
        self.clock = clock
        queue = StoreQueue(capacity: capacity)
    }

    /// Opens the store `settings` name and starts its writer. A file that cannot be written (read-only,
    /// corrupt, not SQLite), or a PostgreSQL server that cannot be reached or refuses, still gives a store:
    /// degraded, saying why, and read when it can be.
    /// - Throws: ``OpenError`` when there can be no store: no libsqlite3 (or libpq), or a path that cannot be created;
    ///   for a `recorder` (`watch --record`), also a store that cannot be written for a reason that lasts (not a server
    ///   down); its warnings while it runs then say what the recorder goes on doing, where `serve`'s say prices are served.
    package static func open(_ settings: StoreSettings, diagnostics: Diagnostics, clock: any PriceClock = SystemClock(),
                             recorder: String? = nil,
                             library loaded: Result<LibSQLite, LibSQLite.LoadError> = LibSQLite.shared,
                             postgresLibrary: Result<LibPQ, LibPQ.LoadError> = LibPQ.shared,
                             capacity: Int = QuoteStore.queueCapacity) throws(OpenError) -> QuoteStore {
        let backend: any StoreBackend
        switch Self.backend(for: settings.location, sqlite: loaded, postgres: postgresLibrary) {
        case .success(let made): backend = made
        case .failure(let error): throw .libraryMissing(error.description)
        }
        if case .sqlite(let path) = settings.location { try makeDirectory(of: path) }
        let store = QuoteStore(settings: settings, backend: backend, diagnostics: diagnostics, clock: clock, capacity: capacity,
                               goingOn: recorder.map { "\($0) goes on" } ?? Self.pricesServed)
        var writer: (any StoreWriting)?
        do throws(StoreFailure) {
            writer = try store.backend.makeWriter()
        } catch where error.cannotCreate {
            throw .cannotCreate(path: backend.location, reason: error.reason)
        } catch where recorder != nil && !error.transient {
            throw .cannotWrite(path: backend.location, reason: error.reason)
        } catch {
            store.degrade(because: error)
        }
        let box = UncheckedBox(writer)
        guard DetachedThread.start({ store.runWriter(box.value) }) else { throw .noThread }
        return store
    }

    /// The engine `location` names, on its library; why not when that library could not be loaded.
    static func backend(for location: StoreLocation, sqlite: Result<LibSQLite, LibSQLite.LoadError>,
                        postgres: Result<LibPQ, LibPQ.LoadError>) -> Result<any StoreBackend, SystemLibrary.LoadError> {
        switch location {
        case .sqlite(let path): sqlite.map { SQLiteBackend(library: $0, path: path) as any StoreBackend }
        case .postgres(let url): postgres.map { PostgresBackend(library: $0, url: url) as any StoreBackend }
        }
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

    /// The writer's thread: a batch when one is due, until the store closes. A batch that failed for a reason that
    /// may pass (a server down) goes back to the head of the queue, and the writer pauses before trying again;
    /// any other failure drops it (counted).
    private func runWriter(_ writer: (any StoreWriting)?) {
        defer { ended.withLock { $0 = true } }
        var writer = writer
        var nextPrune = clock.wallNow
        let interval = UInt64(Durations.milliseconds(of: Self.batchInterval)) * 1_000_000
        var due = StoreQueue.monotonicNanoseconds()
        var pause = Self.retryPauses.first
        var refused: (until: ContinuousClock.Instant, failure: StoreFailure)?
        while let batch = queue.take(due: due) {
            let started = clock.now
            var failure: StoreFailure?
            if writer == nil {
                if let refused, ContinuousClock.now < refused.until {
                    failure = refused.failure
                } else {
                    writer = reopen(&failure)
                    // A server that refused for good is asked again once a second, not at every batch (a file, local and
                    // cheap to open, at every batch: the next quote after it is fixed is kept).
                    refused = backend.readsLocally ? nil : failure.map { (ContinuousClock.now + Self.reopenInterval, $0) }
                }
            }
            if let current = writer {
                do throws(StoreFailure) {
                    _ = try current.write(batch)
                    metrics.wrote(batch.count, in: clock.now - started)
                    recover()
                } catch {
                    failure = error
                }
            }
            if let failure {
                degrade(because: failure)
                if failure.transient, !queue.isClosing {
                    // The connection is suspect: a new one next time. The batch left nothing behind (one transaction).
                    writer?.finish()
                    writer = nil
                    refused = nil
                    queue.requeue(batch)
                    queue.pause(until: StoreQueue.monotonicNanoseconds() + pause)
                    pause = min(pause * 2, Self.retryPauses.longest)
                    due = StoreQueue.monotonicNanoseconds()
                    continue
                }
                metrics.dropped(batch.count)
                // A writer that failed is opened afresh next time: one that opened a read-only file would fail forever.
                writer?.finish()
                writer = nil
            } else if let current = writer, clock.wallNow >= nextPrune {
                nextPrune = clock.wallNow.addingTimeInterval(3_600)
                do throws(StoreFailure) {
                    try prune(current)
                } catch {
                    degrade(because: error)
                }
            }
            pause = Self.retryPauses.first
            queue.settle(batch.count)
            queue.recycle(consume batch)
            due = StoreQueue.monotonicNanoseconds() + interval
        }
        writer?.finish()
    }

    /// A writer for a file that could not be opened before (made writable, or replaced, since), or a server that
    /// answers again; `nil`, with `failure` set, when it still cannot be had.
    private func reopen(_ failure: inout StoreFailure?) -> (any StoreWriting)? {
        do throws(StoreFailure) {
            return try backend.makeWriter()
        } catch {
            failure = error
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
        guard changed else { return }
        if error.transient {
            diagnostics.warning("the quote store \(settings.location) cannot be written: \(reason); \(goingOn), and quotes wait in memory (at most \(queue.capacity)) until it can")
        } else {
            diagnostics.warning("the quote store \(settings.location) cannot be written: \(reason); \(goingOn), and quotes are not kept until it can")
        }
    }

    private func recover() {
        let was = status.withLock { status in
            defer { status = .ok }
            return status
        }
        if case .degraded = was { diagnostics.warning("the quote store \(settings.location) is written again") }
    }
}
