import PriceHostTesting
import Testing

/// Runs each test of a suite, and the tasks it starts, off the cooperative pool: for
/// async tests that wait on sockets, child processes or timers. On the pool, each time
/// such a test resumes it queues behind every test the runner has started, and the
/// synchronous end-to-end tests hold both threads (2 on CI's machine) for seconds at a
/// time, so a test of a few hundred milliseconds can run into its time limit.
///
/// Also for synchronous tests that wait on child processes for many seconds (an install,
/// a plugin build, a deadline): on the pool they hold a thread all that time.
///
/// Only for tests whose code under test runs on threads of its own, in other processes,
/// or on an executor the test gives it: its unstructured tasks (`Task {}`) do not inherit
/// the preference and stay on the pool, where a test off the pool would wait for them
/// against its own clock (`WebSocketFeeds` takes a `taskExecutor` for that reason).
public struct OffThePoolTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(DispatchThreadsExecutor()) { try await function() }
    }
}

extension Trait where Self == OffThePoolTrait {
    /// Runs the tests off Swift concurrency's cooperative pool; see ``OffThePoolTrait``.
    public static var offThePool: Self { OffThePoolTrait() }
}
