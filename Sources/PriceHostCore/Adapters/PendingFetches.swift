import ConcurrencyHelpers
import ProviderABI
import Synchronization

/// Fetches waiting for their plugin's completion, keyed by a number that
/// crosses the boundary as the completion context.
///
/// A number rather than a pointer to Swift memory, so that a plugin calling
/// its completion twice, or after the host gave up waiting, finds nothing
/// and is reported instead of touching freed memory.
package final class PendingFetches: Sendable {
    package static let shared = PendingFetches()

    package struct Waiter: Sendable {
        package let continuation: CheckedContinuation<Quote, any Error>
        package let provider: String
        package let pluginPath: String
        package let request: QuoteRequest
        /// Where a late or repeated completion of this fetch is reported.
        package let diagnostics: Diagnostics
    }

    private struct State {
        var nextID: UInt = 1
        var waiting: [UInt: Waiter] = [:]
        /// The deadline of each waiting fetch, cancelled when it finishes.
        var deadlines: [UInt: FetchDeadline] = [:]
        /// Recently finished fetches, to name the plugin that completes one again, and where to say so.
        var finished: [UInt: (who: String, diagnostics: Diagnostics)] = [:]
        var finishedOrder: [UInt] = []
    }

    private let state = Lock(State())
    private let late = Atomic<Int>(0)
    private let quietAboutLate = Atomic<Bool>(false)

    /// Whether each late completion is logged as it comes. `__probe` turns this
    /// off and reports the count once, so `check` says it in one line.
    package var logsLateCompletions: Bool {
        get { !quietAboutLate.load(ordering: .relaxed) }
        set { quietAboutLate.store(!newValue, ordering: .relaxed) }
    }

    /// How many completions arrived for fetches already finished (second calls, or after the timeout).
    package var lateCompletions: Int { late.load(ordering: .relaxed) }
    private static let rememberedFinished = 1024

    /// True while fetch `id` waits for its completion.
    func isPending(_ id: UInt) -> Bool {
        state.withLock { $0.waiting[id] != nil }
    }

    func countLateCompletion() {
        late.add(1, ordering: .relaxed)
    }

    func add(_ waiter: Waiter) -> UInt {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.waiting[id] = waiter
            return id
        }
    }

    /// Keeps `deadline` with fetch `id` until it finishes; cancels it at once if it already has.
    func attach(_ deadline: FetchDeadline, to id: UInt) {
        let finished = state.withLock { state -> Bool in
            guard state.waiting[id] != nil else { return true }
            state.deadlines[id] = deadline
            return false
        }
        if finished { deadline.cancel() }
    }

    /// Removes and returns the waiter, or `nil` with the plugin that finished it
    /// (and its diagnostics) when it was already finished; the fetch's deadline is cancelled.
    package func take(_ id: UInt) -> (waiter: Waiter?, finishedBy: (who: String, diagnostics: Diagnostics)?) {
        let (waiter, finishedBy, deadline) = state.withLock { state -> (Waiter?, (who: String, diagnostics: Diagnostics)?, FetchDeadline?) in
            guard let waiter = state.waiting.removeValue(forKey: id) else {
                return (nil, state.finished[id], nil)
            }
            let deadline = state.deadlines.removeValue(forKey: id)
            state.finished[id] = ("\(waiter.provider) (\(waiter.pluginPath)) for \(waiter.request.pair)", waiter.diagnostics)
            state.finishedOrder.append(id)
            if state.finishedOrder.count > Self.rememberedFinished {
                state.finished.removeValue(forKey: state.finishedOrder.removeFirst())
            }
            return (waiter, nil, deadline)
        }
        deadline?.cancel()
        return (waiter, finishedBy)
    }
}
