@testable import PriceHostCore
import Testing

/// The request budget: a full bucket lets `burst` requests through at once,
/// then one per `1 / requestsPerSecond`. Bounds only: a loaded machine can be slower, never faster.
struct TokenBucketTests {
    @Test func aFullBucketLetsTheBurstThroughWithoutWaiting() async throws {
        let bucket = TokenBucket(requestsPerSecond: 0.01, burst: 3)
        let clock = ContinuousClock()
        // At 0.01 per second a fourth token would take 100 s: three returning at once shows the burst.
        let elapsed = try await clock.measure {
            for _ in 0..<3 { try await bucket.take() }
        }
        #expect(elapsed < .seconds(50))
    }

    @Test func pastTheBurstARequestWaitsForTheRate() async throws {
        let bucket = TokenBucket(requestsPerSecond: 10, burst: 1)
        let clock = ContinuousClock()
        let elapsed = try await clock.measure {
            for _ in 0..<3 { try await bucket.take() }
        }
        // The first is free; the next two wait about 100 ms each.
        #expect(elapsed >= .milliseconds(190))
    }

    @Test func aCancelledWaitThrowsAndReturnsAtOnce() async throws {
        let bucket = TokenBucket(requestsPerSecond: 0.01, burst: 1)
        try await bucket.take()
        let waiter = Task { try await bucket.take() }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
    }

    @Test func theBucketKeepsNoMoreThanTheBurst() {
        let bucket = TokenBucket(requestsPerSecond: 5, burst: 2)
        #expect(bucket.burst == 2)
        #expect(bucket.rate == 5)
    }
}
