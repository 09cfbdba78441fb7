/// When the SQLite writer copies the WAL's pages into the file: before the first batch, then before a batch once
/// ``quotes`` quotes have gone in since the last copy or ``interval`` has passed since it, whichever comes first.
///
/// A checkpoint that copies anything syncs the WAL and the file, and what a stream on the same two cores felt of the
/// writer's batches was half that: timed against each batch's start, the stream's events slower than 0.25 ms gathered
/// in the millisecond the checkpoint ran, and with `synchronous=OFF` (a probe only) half of them went (BENCHMARKS.md,
/// "The writer checkpoints every 5,000 quotes"). At 10,000 quotes a second this is a copy every fifth batch: four
/// syncs a second instead of twenty, and a WAL of about 1 MB at most. A larger batch (an ingest at 100,000 quotes a
/// second, a backlog) is checkpointed before each, as before; a trickle once a second.
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

    /// A checkpoint succeeded: the count starts again. (One that failed leaves the next batch due.)
    mutating func checkpointed() {
        last = now()
        since = 0
    }

    /// A batch of `count` quotes is being written.
    mutating func writing(_ count: Int) {
        since += count
    }
}
