import Foundation
import Glibc
@testable import PriceHostStore
import Testing

/// The writer's priority: idle while it keeps up, normal when behind or awaited, and the system takes both.
struct WriterPriorityTests {
    @Test func aShallowBatchIsIdleAndALargeOrAwaitedOneNormal() {
        #expect(WriterPriority.forBatch(of: 1_000, awaited: false) == .idle)
        #expect(WriterPriority.forBatch(of: WriterPriority.catchUpBatch - 1, awaited: false) == .idle)
        #expect(WriterPriority.forBatch(of: WriterPriority.catchUpBatch, awaited: false) == .normal)
        #expect(WriterPriority.forBatch(of: 1, awaited: true) == .normal)
        #expect(WriterPriority.forBatch(of: 1, awaited: false, late: .milliseconds(99)) == .idle)
        #expect(WriterPriority.forBatch(of: 1, awaited: false, late: WriterPriority.lateness) == .normal)
        #expect(WriterPriority.forBatch(of: 1, awaited: false, opening: true) == .normal)
    }

    /// On a thread of its own: the test's thread keeps its policy. Where the system lets a thread go idle but not come
    /// back (no CAP_SYS_NICE, RLIMIT_NICE below 20), the writer never goes idle.
    @Test func theSystemPutsTheThreadInSchedIdleAndBackOrTheWriterStaysNormal() throws {
        guard WriterPriority.reversible else {
            #expect(WriterPriority.forWriter(batch: 1, awaited: false, late: .zero, opening: false) == .normal)
            return
        }
        #expect(WriterPriority.forWriter(batch: 1, awaited: false, late: .zero, opening: false) == .idle)
        let policies = try Self.onAThread { () -> [Int32] in
            var seen: [Int32] = []
            for priority in [WriterPriority.idle, .normal] {
                guard priority.apply() else { return [] }
                var policy: Int32 = -1
                var parameters = sched_param()
                pthread_getschedparam(pthread_self(), &policy, &parameters)
                seen.append(policy)
            }
            return seen
        }
        // SCHED_IDLE is 5 and SCHED_OTHER 0 in <linux/sched.h>.
        #expect(policies == [5, 0])
    }

    private static func onAThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) throws -> Result {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result?
        Thread.detachNewThread {
            result = body()
            done.signal()
        }
        try #require(done.wait(timeout: .now() + 10) == .success)
        return try #require(result)
    }
}
