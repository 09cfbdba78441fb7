import ConcurrencyHelpers
import Glibc

/// A fixed number of lanes for suites whose tests block a thread (on a child process, a plugin build, a
/// socket), taken by a whole suite at a time (``BlockingLaneTrait``).
///
/// A suite waits for a lane before its first test starts, suspended, holding no thread: the wait is outside
/// every test's time limit, which Swift Testing starts for each test case on its own. Without lanes, such
/// tests either hold the cooperative pool (2 threads here) until every async test queued behind them runs
/// into its time limit, or all start at once, each with a `pricehost` of its own on two cores.
public final class BlockingLanes: Sendable {
    /// The lanes of the test process: one per core, at least two.
    public static let shared = BlockingLanes(count: max(2, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))

    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Lock<State>

    public init(count: Int) {
        precondition(count > 0, "a lane count must be positive")
        state = Lock(State(free: count))
    }

    /// Runs `body` once a lane is free, in the order the suites asked, and frees the lane after it.
    public func withLane<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        await take()
        defer { release() }
        return try await body()
    }

    private func take() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let free = state.withLock { state in
                guard state.free > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if free { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
