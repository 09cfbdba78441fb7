/// Why the store's engine refused: what the user reads, and whether it is a state of the file or server
/// that a retry will not change soon (a full disk, a read-only or corrupt file) or one that may pass.
package struct StoreFailure: Error, CustomStringConvertible, Sendable, Equatable {
    package var reason: String
    /// The store does not exist and cannot be made there (a path under a file, a directory not writable).
    package var cannotCreate: Bool
    /// The server cannot be reached, or the connection was lost: the batch is kept and tried again, not dropped.
    package var transient: Bool

    package init(_ reason: String, cannotCreate: Bool = false, transient: Bool = false) {
        self.reason = reason
        self.cannotCreate = cannotCreate
        self.transient = transient
    }

    package var description: String { reason }
}

/// Why the store could not be read: the engine's words, with what they mean, naming the store.
package struct StoreReadError: Error, CustomStringConvertible, Sendable, Equatable {
    package var description: String
}

/// A value handed to another thread that then owns it alone.
struct UncheckedBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// An engine the quote store keeps its quotes in (SQLite, or PostgreSQL for a fleet): how to
/// write a batch on the writer's thread, and the reads every answer is made of. ``QuoteStore`` owns the queue,
/// the writer's thread, the status and the metrics, and makes candles' gaps, prices and TWAPs from these reads.
protocol StoreBackend: Sendable {
    /// The `backend` label of the store's metrics: `sqlite` or `postgres`.
    var label: String { get }
    /// What the store is, for messages: the file's path, or the URL without its password.
    var location: String { get }
    /// Whether a read is local and quick (a file: SQLite), rather than a round trip to a server that may be slow or gone.
    var readsLocally: Bool { get }

    /// The writer, made on the writer's thread and used only there; thrown when the file or server cannot be written.
    func makeWriter() throws(StoreFailure) -> any StoreWriting

    /// The origins held for a pair.
    func origins(asset: String, currency: String) throws(StoreReadError) -> [QuoteOrigin]
    /// The candles of `series` `span` minutes wide that start from `firstStart` through `lastStart` (minutes since 1970),
    /// oldest first, at most `limit`.
    func candles(_ series: SeriesKey, span: Int64, firstStart: Int64, lastStart: Int64, limit: Int) throws(StoreReadError) -> [Candle]
    /// The close of the last candle of `series` `span` minutes wide that starts before `start` (minutes).
    func close(_ series: SeriesKey, span: Int64, before start: Int64) throws(StoreReadError) -> String?
    /// The last quote at or before `time` (ms): the latest by the venue's time, of those the latest received.
    func quote(_ series: SeriesKey, atOrBefore time: Int64) throws(StoreReadError) -> StoredQuote?
    /// The quotes with a venue time in (`after`, `through`] (ms), oldest first.
    func quotes(_ series: SeriesKey, after: Int64, through: Int64) throws(StoreReadError) -> [StoredQuote]
    /// The bytes the store takes on disk.
    var bytes: Int { get }
}

/// The writer's side of a backend: used by the writer's thread alone.
protocol StoreWriting: AnyObject {
    /// Writes `batch` at once; the quotes already kept are skipped. Returns how many were new. A transient failure
    /// leaves nothing of the batch written (one transaction), so writing it again is safe.
    func write(_ batch: [StoredQuote]) throws(StoreFailure) -> Int
    /// Deletes quotes older than `rawBefore` and candles that start before `candlesBefore` (ms).
    func prune(rawBefore: Int64, candlesBefore: Int64) throws(StoreFailure)
    /// Called once when the store closes.
    func finish()
}
