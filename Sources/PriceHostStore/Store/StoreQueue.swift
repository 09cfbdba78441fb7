import Glibc

/// The quotes waiting for the writer: bounded, so that a stream never waits on the disk. Past
/// ``capacity`` the oldest are dropped (and counted). The writer takes everything at once.
///
/// A pthread mutex and condition (ThreadSanitizer sees both): the writer sleeps on the condition
/// until a quote arrives, its next batch is due, a flush is asked for, or the store closes.
final class StoreQueue: @unchecked Sendable {
    // @unchecked: every stored property but the two pthread objects is read and written with `mutex` held.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    let capacity: Int

    private var entries: [StoredQuote] = []
    /// The storage of a batch the writer has written, emptied and given back (``recycle(_:)``): the next ``entries``.
    /// In a steady stream no batch allocates: a push appends within capacity, and the writer frees nothing.
    private var spare: [StoredQuote] = []
    /// How many of `entries`' first elements were dropped and not yet removed (removed in bulk).
    private var head = 0
    /// Quotes pushed in all, and quotes written or dropped in all: a flush waits for the second to reach the first.
    private var pushed: UInt64 = 0
    private var settled: UInt64 = 0
    private(set) var droppedOnOverflow: UInt64 = 0
    private var flushes = 0
    private var closing = false

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        guard pthread_mutex_init(mutex, nil) == 0, pthread_cond_init(condition, &attributes) == 0 else {
            fatalError("pthread_mutex_init or pthread_cond_init failed; the process is out of resources")
        }
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    private func locked<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Queues `quote`, dropping the oldest when full; false once the store has closed (the quote is not kept).
    @discardableResult
    func push(_ quote: StoredQuote) -> Bool {
        locked {
            guard !closing else { return false }
            if entries.count - head >= capacity {
                head += 1
                droppedOnOverflow += 1
                settled += 1
                if head >= capacity { entries.removeFirst(head); head = 0 }
            }
            let wasEmpty = entries.count == head
            entries.append(quote)
            pushed += 1
            // The writer sleeps without a deadline only while the queue is empty.
            if wasEmpty { pthread_cond_broadcast(condition) }
            return true
        }
    }

    /// How many wait now.
    var depth: Int { locked { entries.count - head } }

    /// How many more quotes the queue's storage takes before a push must grow it.
    var room: Int { locked { entries.capacity - entries.count } }

    /// The writer's wait: returns what is queued once `due` (monotonic nanoseconds) has passed, or sooner
    /// when a flush is asked for or the store closes; `nil` when closing with nothing left.
    ///
    /// The queue's storage is handed over whole, so the mutex is held for a moment whatever the batch's
    /// size: a stream's thread pushing a quote never waits behind a copy.
    func take(due: UInt64) -> [StoredQuote]? {
        // The dropped head is cut off after the mutex is let go: a copy of up to `capacity` quotes.
        guard let (quotes, dropped) = takeWhole(due: due) else { return nil }
        return dropped == 0 ? quotes : Array(quotes[dropped...])
    }

    private func takeWhole(due: UInt64) -> (quotes: [StoredQuote], dropped: Int)? {
        locked {
            while true {
                let waiting = entries.count - head
                if waiting > 0, closing || flushes > 0 || Self.monotonicNanoseconds() >= due { break }
                if waiting == 0, closing { return nil }
                if waiting == 0 {
                    // Nothing to write: a flush asked now has nothing to wait for.
                    if flushes > 0 { pthread_cond_broadcast(condition) }
                    pthread_cond_wait(condition, mutex)
                } else {
                    var deadline = timespec(tv_sec: Int(due / 1_000_000_000), tv_nsec: Int(due % 1_000_000_000))
                    pthread_cond_timedwait(condition, mutex, &deadline)
                }
            }
            var quotes: [StoredQuote] = []
            swap(&quotes, &spare)
            swap(&quotes, &entries)
            // No storage given back yet (the first batch, or one put back): room for as many as this batch.
            if entries.capacity == 0 { entries.reserveCapacity(min(quotes.count, 16_384)) }
            let dropped = head
            head = 0
            return (quotes, dropped)
        }
    }

    /// Takes back the storage of `batch`, which the writer has written or dropped, for the batches to come: a stream's
    /// thread pushing into a buffer too small for its batch copied the whole batch to a buffer twice the size (one
    /// `mmap`ed past 128 KiB), and the writer freed one per batch. Emptied here, on the writer's thread.
    func recycle(_ batch: consuming [StoredQuote]) {
        var emptied = batch
        // Grown ahead once, not by a stream's push: room for twice the batch, up to 16,384 quotes. The storage of a
        // batch far larger (a backlog written at once after an outage) is let go, not kept for good.
        let room = min(max(emptied.capacity, 2 * emptied.count), 16_384)
        if emptied.capacity > 2 * 16_384 { emptied = [] } else { emptied.removeAll(keepingCapacity: true) }
        emptied.reserveCapacity(room)
        locked { swap(&emptied, &spare) }
        // What `spare` held before (nothing, or an empty buffer) is freed here, after the mutex is let go.
    }

    /// Puts back `batch`, which the writer took and could not write for now, before what came since: it is tried
    /// again first. Past ``capacity`` the oldest are dropped (and counted), as on a push.
    func requeue(_ batch: [StoredQuote]) {
        locked {
            let waiting = entries[head...]
            let overflow = max(0, batch.count + waiting.count - capacity)
            let kept = batch.count > overflow ? Array(batch[overflow...]) : []
            entries = kept + waiting.dropFirst(max(0, overflow - batch.count))
            head = 0
            droppedOnOverflow += UInt64(overflow)
            settled += UInt64(overflow)
            pthread_cond_broadcast(condition)
        }
    }

    /// Sleeps until `deadline` (monotonic nanoseconds) or until the store closes, whichever comes first: the writer's
    /// pause before it tries a server again. A flush does not cut it short.
    func pause(until deadline: UInt64) {
        locked {
            while !closing, Self.monotonicNanoseconds() < deadline {
                var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
                pthread_cond_timedwait(condition, mutex, &time)
            }
        }
    }

    /// Whether the store is closing: no more quotes are taken.
    var isClosing: Bool { locked { closing } }

    /// The writer wrote (or dropped) `count` quotes it took.
    func settle(_ count: Int) {
        locked {
            settled += UInt64(count)
            pthread_cond_broadcast(condition)
        }
    }

    /// Waits until every quote pushed before the call is written or dropped (or the store has closed).
    func flush() {
        locked {
            let target = pushed
            flushes += 1
            pthread_cond_broadcast(condition)
            while settled < target, !closing { pthread_cond_wait(condition, mutex) }
            flushes -= 1
        }
    }

    /// No more quotes are taken; the writer writes what is queued and ends.
    func close() {
        locked {
            closing = true
            pthread_cond_broadcast(condition)
        }
    }

    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
