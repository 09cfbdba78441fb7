import ConcurrencyHelpers
import PriceHostCore

/// What the store counts, for `/metrics`.
final class StoreMetrics: Sendable {
    /// The batch histogram's upper bounds, in seconds.
    static let batchBuckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

    private struct Counts {
        var written = 0
        var dropped = 0
        var batches = PrometheusHistogram(bounds: StoreMetrics.batchBuckets)
    }

    private let counts = Lock(Counts())

    /// A batch of `count` quotes was committed in `duration` (those the store kept already among them: written, skipped).
    func wrote(_ count: Int, in duration: Duration) {
        counts.withLock { counts in
            counts.written += count
            counts.batches.record(duration)
        }
    }

    /// `count` quotes could not be written.
    func dropped(_ count: Int) {
        counts.withLock { $0.dropped += count }
    }

    var written: Int { counts.withLock { $0.written } }
    var droppedCount: Int { counts.withLock { $0.dropped } }

    /// The families, with the queue's depth and drops and the file's size read now.
    func write(to writer: inout PrometheusWriter, queue: StoreQueue, backend: any StoreBackend) {
        let labels = [("backend", backend.label)]
        let counts = counts.withLock { $0 }
        writer.family("pricehost_store_writes_total", "counter", "Quotes written to the quote store.")
        writer.sample("pricehost_store_writes_total", labels, String(counts.written))
        writer.family("pricehost_store_dropped_total", "counter",
                      "Quotes not written to the quote store: dropped from a full queue (oldest first), or in a batch the file refused.")
        writer.sample("pricehost_store_dropped_total", labels, String(counts.dropped + Int(queue.droppedOnOverflow)))
        writer.family("pricehost_store_queue_depth", "gauge", "Quotes waiting for the quote store's writer.")
        writer.sample("pricehost_store_queue_depth", labels, String(queue.depth))
        writer.family("pricehost_store_batch_duration_seconds", "histogram", "How long one batch (one transaction) of the quote store took.")
        writer.histogram("pricehost_store_batch_duration_seconds", labels, counts.batches)
        writer.family("pricehost_store_bytes", "gauge", "The quote store's size on disk: the database file and its write-ahead log.")
        writer.sample("pricehost_store_bytes", labels, String(backend.bytes))
    }
}

extension QuoteStore {
    /// Adds the store's metric families to `writer`.
    package func writeMetrics(to writer: inout PrometheusWriter) {
        metrics.write(to: &writer, queue: queue, backend: backend)
    }

    /// Quotes written in all (for tests and `watch --record`'s summary).
    package var writtenCount: Int { metrics.written }
    /// Quotes dropped in all: from a full queue, or in batches the file refused.
    package var droppedCount: Int { metrics.droppedCount + Int(queue.droppedOnOverflow) }
}
