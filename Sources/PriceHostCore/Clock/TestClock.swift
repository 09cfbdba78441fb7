import ConcurrencyHelpers
import FoundationEssentials

/// A clock that moves only when a test says: ``advance(by:)`` moves both of its times and runs what
/// came due on the way, in the order of their deadlines, each at its own deadline's time.
///
/// Scheduled actions run on the thread that advances, before `advance` returns; a sleeping task
/// is resumed there, and goes on on its executor. ``pendingTimers`` counts the sleepers and
/// actions waiting, so a test can wait (``waitForTimers(atLeast:within:)``) until the code under
/// test is asleep before it moves time.
package final class TestClock: PriceClock {
    private struct Entry {
        var deadline: ContinuousClock.Instant
        var action: @Sendable () -> Void
    }

    private struct State {
        var now: ContinuousClock.Instant
        var wallNow: Date
        var entries: [Int: Entry] = [:]
        var nextID = 0
    }

    private let state: Lock<State>

    /// Starts at the machine's monotonic now, and at `wallNow` on the wall clock.
    package init(wallNow: Date = Date(timeIntervalSince1970: 1_795_702_800)) {
        state = Lock(State(now: .now, wallNow: wallNow))
    }

    package var now: ContinuousClock.Instant { state.withLock { $0.now } }

    package var wallNow: Date { state.withLock { $0.wallNow } }

    /// Sleepers and scheduled actions that have not come due, nor been cancelled.
    package var pendingTimers: Int { state.withLock { $0.entries.count } }

    /// Moves time forward by `duration`, running each action (and waking each sleeper) that comes due, in deadline order.
    package func advance(by duration: Duration) {
        let target = state.withLock { $0.now + duration }
        while true {
            let due: Entry? = state.withLock { state in
                guard let (id, entry) = state.entries.filter({ $0.value.deadline <= target })
                    .min(by: { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }) else { return nil }
                state.entries[id] = nil
                if entry.deadline > state.now { Self.move(&state, to: entry.deadline) }
                return entry
            }
            guard let due else { break }
            due.action()
        }
        state.withLock { state in
            if target > state.now { Self.move(&state, to: target) }
        }
    }

    /// Waits, on the real clock, until at least `count` timers are pending; false if `limit` passed first.
    package func waitForTimers(atLeast count: Int, within limit: Duration = .seconds(10)) async -> Bool {
        let end = ContinuousClock.now + limit
        while pendingTimers < count {
            guard ContinuousClock.now < end else { return false }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return true
    }

    /// An action at a deadline already passed runs at the next ``advance(by:)`` (by `.zero` will do).
    package func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> ClockTimer {
        let id = state.withLock { state in
            state.nextID += 1
            state.entries[state.nextID] = Entry(deadline: deadline, action: action)
            return state.nextID
        }
        return ClockTimer { [state] in state.withLock { _ = $0.entries.removeValue(forKey: id) } }
    }

    package func sleep(until deadline: ContinuousClock.Instant) async throws {
        try Task.checkCancellation()
        guard deadline > now else { return }
        let sleeper = Sleeper()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                sleeper.start(continuation, timer: schedule(at: deadline) { sleeper.end(throwing: nil) })
            }
        } onCancel: {
            sleeper.end(throwing: CancellationError())
        }
    }

    private static func move(_ state: inout State, to instant: ContinuousClock.Instant) {
        state.wallNow = state.wallNow.addingTimeInterval(Durations.secondsValue(state.now.duration(to: instant)))
        state.now = instant
    }
}

/// One task asleep on a ``TestClock``: resumed once, by its deadline or its cancellation, whichever comes first.
private final class Sleeper: Sendable {
    private enum Phase {
        case starting
        case waiting(CheckedContinuation<Void, any Error>, ClockTimer)
        case ended((any Error)?)
    }

    private let phase = Lock<Phase>(.starting)

    func start(_ continuation: CheckedContinuation<Void, any Error>, timer: ClockTimer) {
        let ended: (any Error)?? = phase.withLock { phase in
            guard case .ended(let error) = phase else {
                phase = .waiting(continuation, timer)
                return .none
            }
            return .some(error)
        }
        guard let ended else { return }
        timer.cancel()
        if let ended { continuation.resume(throwing: ended) } else { continuation.resume() }
    }

    func end(throwing error: (any Error)?) {
        let waiting: (CheckedContinuation<Void, any Error>, ClockTimer)? = phase.withLock { phase in
            switch phase {
            case .starting:
                phase = .ended(error)
                return nil
            case .waiting(let continuation, let timer):
                phase = .ended(nil)
                return (continuation, timer)
            case .ended:
                return nil
            }
        }
        guard let (continuation, timer) = waiting else { return }
        timer.cancel()
        if let error { continuation.resume(throwing: error) } else { continuation.resume() }
    }
}
