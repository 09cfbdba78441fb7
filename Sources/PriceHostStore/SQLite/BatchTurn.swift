import Glibc

/// Spreads a small batch's work over time: after every ``slice`` of work the writer sleeps for ``rest``, so it holds
/// a core for a tenth of a millisecond at a time rather than for the whole batch at once.
///
/// A batch of 1,000 quotes (100 ms at 10,000 a second) is 2 to 5 ms of one core. While a stream kept the two cores
/// busy, its threads lost that core for as long, fell behind, and the events sent during a batch and in the few
/// milliseconds after it were the stream's slowest: timed against the writer's batches, the stream's slow events
/// gathered in the 15 ms after each batch began (BENCHMARKS.md, "The writer paces a batch"). A yield, what this did
/// before, gave the core only to a thread already queued on it; a sleep frees it for any.
///
/// Bounded, so that the writer keeps up whatever the load: only a batch of at most ``pacedQuotes`` is paced, and only
/// for its first ``budget``; a larger batch (a backlog, an ingest at 100,000 quotes a second) and the rest of a batch
/// past its budget run at full speed. At 10,000 quotes a second a batch takes 12 to 40 ms paced (more on a busy
/// machine, never much past the budget), within the 100 ms until the next one, and commits as soon as it ends.
///
/// What it buys, counted against the writer's batch times (BENCHMARKS.md, "The writer paces a batch"): the stream's
/// events slower than 0.7 ms that a batch and the 15 ms after it add fell from 7 to 9 a batch with a yield to 2 to
/// 4; the events of 0.4 to 0.7 ms it adds did not change. 100 µs and 200 µs slices could not be told apart.
struct BatchTurn {
    static let slice: Duration = .microseconds(100)
    static let rest: Duration = .microseconds(400)
    static let budget: Duration = .milliseconds(40)
    /// The largest batch paced: 25,000 quotes a second, at a batch every 100 ms.
    static let pacedQuotes = 2_500

    private let paced: Bool
    private let now: () -> ContinuousClock.Instant
    private let sleep: (Duration) -> Void
    private let started: ContinuousClock.Instant
    private var since: ContinuousClock.Instant

    /// A turn for a batch of `count` quotes, on the system's clock unless a test gives its own.
    init(count: Int, now: @escaping () -> ContinuousClock.Instant = { .now }, sleep: @escaping (Duration) -> Void = BatchTurn.sleep) {
        paced = count <= Self.pacedQuotes
        self.now = now
        self.sleep = sleep
        started = now()
        since = started
    }

    /// Called between two pieces of the batch's work: sleeps for ``rest`` once ``slice`` of work has passed since
    /// the last rest, while the batch is paced and within its budget.
    mutating func step() {
        guard paced else { return }
        let current = now()
        guard current - since >= Self.slice, current - started < Self.budget else { return }
        rest()
    }

    /// Called between the checkpoint before the batch and the batch's work: for a paced batch, one ``rest``, so that
    /// the checkpoint, a burst SQLite cannot cut into slices, is not followed by a slice at once.
    mutating func restAfterCheckpoint() {
        guard paced else { return }
        rest()
    }

    /// Sleeps for ``rest``; the next slice of work is counted from its end.
    private mutating func rest() {
        sleep(Self.rest)
        since = now()
    }

    static func sleep(_ duration: Duration) {
        usleep(UInt32(duration / .microseconds(1)))
    }
}
