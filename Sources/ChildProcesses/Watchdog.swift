import CChildProcess
import ConcurrencyHelpers
import Dispatch
import Glibc

/// Kills children that outlive their deadline, so that no wait on a child blocks
/// forever. A child stays registered until it has exited but is not yet reaped,
/// so a pid it signals is always still the child's (a reaped pid could be reused).
final class Watchdog: Sendable {
    static let shared = Watchdog()

    enum Verdict: Equatable {
        case notKilled
        /// Killed while it still ran.
        case killedRunning
        /// It had exited, but its group or its output was still alive at the deadline.
        case killedAfterExit
    }

    private struct Entry {
        var token: UInt64
        var processGroup: Bool
        var verdict = Verdict.notKilled
    }

    private struct State {
        var entries: [pid_t: Entry] = [:]
        var nextToken: UInt64 = 0
        /// Set by ``shutDown()``: every child is killed as soon as it is watched.
        var isShutDown = false
    }

    private let state = Lock(State())
    private let queue = DispatchQueue(label: "ChildProcesses.Watchdog")
    /// No child here is meant to run longer than a day.
    private static let longestWait: UInt64 = 86_400 * 1_000_000_000

    /// Watches `pid` until ``release(_:)``; kills it (and its group) at `deadline`, in monotonic ns.
    func watch(_ pid: pid_t, processGroup: Bool, until deadline: UInt64) {
        let token = state.withLock { state in
            state.nextToken += 1
            var entry = Entry(token: state.nextToken, processGroup: processGroup)
            if state.isShutDown {
                Self.kill(pid, processGroup: processGroup)
                entry.verdict = .killedRunning
            }
            state.entries[pid] = entry
            return entry.token
        }
        let now = ChildProcess.monotonicNanoseconds()
        let delay = min(deadline > now ? deadline - now : 0, Self.longestWait)
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(delay))) { [self] in expire(pid, token: token) }
    }

    /// Stops watching `pid`, which has exited and is not reaped yet; says whether it was killed.
    func release(_ pid: pid_t) -> Verdict {
        state.withLock { $0.entries.removeValue(forKey: pid)?.verdict ?? .notKilled }
    }

    /// Kills every child still watched, and every child started from now on.
    func shutDown() {
        state.withLock { state in
            state.isShutDown = true
            for (pid, entry) in state.entries where entry.verdict == .notKilled {
                Self.kill(pid, processGroup: entry.processGroup)
                state.entries[pid]?.verdict = .killedRunning
            }
        }
    }

    private func expire(_ pid: pid_t, token: UInt64) {
        state.withLock { state in
            // A later child may have the same pid: only this child's own deadline counts.
            guard let entry = state.entries[pid], entry.token == token, entry.verdict == .notKilled else { return }
            let hadExited = cchild_has_exited(pid) == 1
            Self.kill(pid, processGroup: entry.processGroup)
            state.entries[pid]?.verdict = hadExited ? .killedAfterExit : .killedRunning
        }
    }

    private static func kill(_ pid: pid_t, processGroup: Bool) {
        if processGroup { Glibc.kill(-pid, SIGKILL) }
        Glibc.kill(pid, SIGKILL)
    }
}
