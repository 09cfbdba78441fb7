import PriceHostTesting
import Testing

/// For suites whose synchronous tests block a thread for a while: a child process (`pricehost`, a compiler,
/// a shell), a plugin build, a socket. The suite takes one of ``BlockingLanes/shared`` for all its tests,
/// and each test runs off the cooperative pool, on a Dispatch thread.
///
/// Use it with `.serialized`, so that a suite's tests run one after another in its lane: then as many
/// blocking tests run at once as there are lanes (as many as cores), none of them on the pool, and the async
/// tests on the pool never queue behind them. Before, such tests held both threads of the pool for a minute
/// under load, and unit tests waiting behind them ran into their time limits.
///
/// A suite nested in one that holds a lane runs in that lane.
public struct BlockingLaneTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    @TaskLocal private static var holdsLane = false

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase != nil || test.isSuite ? self : nil
    }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        if testCase != nil {
            // Each test as `.offThePool` runs it.
            try await OffThePoolTrait().provideScope(for: test, testCase: testCase, performing: function)
        } else if Self.holdsLane {
            try await function()
        } else {
            try await BlockingLanes.shared.withLane {
                try await Self.$holdsLane.withValue(true) { try await function() }
            }
        }
    }
}

extension Trait where Self == BlockingLaneTrait {
    /// Runs the suite in one of a few lanes for blocking tests, off the cooperative pool; see ``BlockingLaneTrait``.
    public static var blockingLane: Self { BlockingLaneTrait() }
}
