@testable import PriceHostStore
import Testing

/// When the SQLite writer checkpoints, on a clock of the test's: before the first batch, then every
/// `CheckpointSchedule.quotes` quotes or each `interval`, whichever comes first.
struct CheckpointScheduleTests {
    /// A schedule driven through `batches` batches of `count` quotes, `apart` apart on the test's clock: which batches
    /// were preceded by a checkpoint.
    static func checkpointed(batches: Int, count: Int, apart: Duration) -> [Int] {
        var instant = ContinuousClock.now
        var schedule = CheckpointSchedule(now: { instant })
        var checkpointed: [Int] = []
        for batch in 0..<batches {
            if schedule.isDue {
                checkpointed.append(batch)
                schedule.checkpointed()
            }
            schedule.writing(count)
            instant += apart
        }
        return checkpointed
    }

    @Test func aStreamOfTenThousandQuotesASecondIsCheckpointedEveryFifthBatch() {
        // Batches of 1,000 quotes every 100 ms: 5,000 quotes come before a second has passed.
        #expect(Self.checkpointed(batches: 21, count: 1_000, apart: .milliseconds(100)) == [0, 5, 10, 15, 20])
    }

    @Test func aTrickleIsCheckpointedOnceASecond() {
        // A quote every 250 ms: the second passes long before 5,000 quotes.
        #expect(Self.checkpointed(batches: 13, count: 1, apart: .milliseconds(250)) == [0, 4, 8, 12])
    }

    @Test func largeBatchesAreCheckpointedBeforeEachOne() {
        // An ingest at 100,000 quotes a second: batches of 10,000, each past the count.
        #expect(Self.checkpointed(batches: 4, count: 10_000, apart: .milliseconds(100)) == [0, 1, 2, 3])
    }

    @Test func aPruneHasTheNextBatchCheckpoint() {
        var instant = ContinuousClock.now
        var schedule = CheckpointSchedule(now: { instant })
        schedule.checkpointed()
        schedule.writing(1_000)
        instant += .milliseconds(100)
        #expect(!schedule.isDue)
        schedule.pruned()
        #expect(schedule.isDue)
        schedule.checkpointed()
        #expect(!schedule.isDue)
    }
}
