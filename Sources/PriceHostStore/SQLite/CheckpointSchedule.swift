/// When the SQLite writer copies the WAL's pages into the file: before the first batch, then before a batch once
/// ``quotes`` quotes have gone in since the last copy or ``interval`` has passed since it, whichever comes first.
///
/// A checkpoint is a burst nothing can slice: timed against each batch's start, a stream's events slower than 0.25 ms
/// on the same two cores gathered in the millisecond the checkpoint ran, and half of that was its syncs (BENCHMARKS.md,
/// "The writer checkpoints every 5,000 quotes"). At 10,000 quotes a second this is a copy every fifth batch: about six
/// syncs a second instead of thirty (with `synchronous=NORMAL` SQLite syncs the WAL before a checkpoint, the file after
/// it, and the WAL's header when the next commit starts it again), and a WAL of five batches, about 1 MB. A larger
/// batch (an ingest at 100,000 quotes a second, a backlog) is checkpointed before each, as before; a trickle once a
/// second.
struct CheckpointSchedule {
    static let quotes = 5_000
    static let interval: Duration = .seconds(1)

    private let now: () -> ContinuousClock.Instant
    private var last: ContinuousClock.Instant?
    private var since = 0

    /// A schedule on the system's clock unless a test gives its own.
    init(now: @escaping () -> ContinuousClock.Instant = { .now }) {
        self.now = now
    }

    /// Whether the next batch is to be preceded by a checkpoint.
    var isDue: Bool {
        guard let last else { return true }
        return since >= Self.quotes || now() - last >= Self.interval
    }

    /// A checkpoint succeeded: the count starts again. (After one that failed the store replaces its writer, and the
    /// new writer's schedule has the first batch checkpoint.)
    mutating func checkpointed() {
        last = now()
        since = 0
    }

    /// A batch of `count` quotes is being written.
    mutating func writing(_ count: Int) {
        since += count
    }

    /// The retention's prune deleted rows outside any batch, as many pages as a large backlog can be: the next batch
    /// is to be preceded by a checkpoint.
    mutating func pruned() {
        since = Self.quotes
    }
}
