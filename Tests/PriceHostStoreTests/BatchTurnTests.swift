@testable import PriceHostStore
import Testing

/// The writer's pacing of a batch, on a clock of the test's: rests between slices of a small batch's work, within
/// the batch's budget; none for a large one.
struct BatchTurnTests {
    /// A clock that each step of work moves by `work`, and each rest by the time slept; the rests taken.
    final class Rig {
        var instant = ContinuousClock.now
        var rests: [Duration] = []
        /// When each rest began, from the batch's start.
        var restsAt: [Duration] = []

        func run(count: Int, steps: Int, work: Duration) {
            let start = instant
            var turn = BatchTurn(count: count, now: { self.instant }, sleep: { slept in
                self.restsAt.append(self.instant - start)
                self.rests.append(slept)
                self.instant += slept
            })
            for _ in 0..<steps {
                instant += work
                turn.step()
            }
        }
    }

    @Test func aSmallBatchRestsAfterEachSliceOfWorkUntilItsBudgetIsSpent() {
        let rig = Rig()
        // 1,000 quotes of 5 µs each: 5 ms of work.
        rig.run(count: 1_000, steps: 1_000, work: .microseconds(5))
        // A rest after every 100 µs of work: 50 in 5 ms, each of 400 µs, all within the first 40 ms.
        #expect(rig.rests.count == 50, "\(rig.rests.count) rests")
        #expect(rig.rests.allSatisfy { $0 == BatchTurn.rest })
        #expect(rig.restsAt.allSatisfy { $0 < BatchTurn.budget })
        // Between two rests, one slice of work.
        for (earlier, later) in zip(rig.restsAt, rig.restsAt.dropFirst()) {
            #expect(later - earlier - BatchTurn.rest == BatchTurn.slice)
        }
    }

    @Test func pastItsBudgetABatchRunsOutWithoutRests() {
        let rig = Rig()
        // 2,500 quotes of 20 µs each: 50 ms of work, paced only while under 40 ms have passed.
        rig.run(count: 2_500, steps: 2_500, work: .microseconds(20))
        // Each 100 µs of work is followed by 400 µs asleep: the 80th rest begins at 39.6 ms, and none after it; the
        // remaining 42 ms of work run out at once.
        #expect(rig.rests.count == 80, "\(rig.rests.count) rests")
        #expect(rig.restsAt.last == .microseconds(39_600))
    }

    @Test func aBatchLargerThanThePacedBoundIsNeverPaced() {
        let rig = Rig()
        rig.run(count: BatchTurn.pacedQuotes + 1, steps: 10_000, work: .microseconds(5))
        #expect(rig.rests.isEmpty)
    }

    @Test func aPacedBatchRestsOnceAfterTheCheckpointBeforeIt() {
        for (count, rests) in [(1_000, 1), (BatchTurn.pacedQuotes + 1, 0)] {
            var slept: [Duration] = []
            var turn = BatchTurn(count: count, now: { .now }, sleep: { slept.append($0) })
            turn.restAfterCheckpoint()
            #expect(slept == Array(repeating: BatchTurn.rest, count: rests), "a batch of \(count)")
        }
    }
}
