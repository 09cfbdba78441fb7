import Foundation
import Glibc
import Synchronization

/// Kills children that outlive their deadline, so that no wait on a child can
/// block forever; one thread checks every 50 ms. Children stay registered until
/// they have exited but are not yet reaped, so a pid it signals is always still
/// the child's (a reaped pid could be reused by an unrelated process).
final class Watchdog: Sendable {
    static let shared = Watchdog()

    private struct State {
        var deadlines: [pid_t: UInt64] = [:]
        var killed: Set<pid_t> = []
        /// Set by ``shutDown()``: every child is killed as soon as it is watched.
        var isShutDown = false
    }

    private let state = Mutex(State())
    /// The thread gives up after a day: nothing here runs that long.
    private static let checks = 24 * 3600 * 20

    private init() {
        Thread.detachNewThread { [self] in
            for _ in 0..<Self.checks {
                usleep(50_000)
                killOverdue()
            }
        }
    }

    /// Watches `pid` until ``release(_:)``; kills it with SIGKILL after `deadline` (monotonic ns).
    func watch(_ pid: pid_t, until deadline: UInt64) {
        state.withLock { state in
            state.deadlines[pid] = deadline
            if state.isShutDown {
                kill(pid, SIGKILL)
                state.killed.insert(pid)
            }
        }
    }

    /// Stops watching `pid` (which has exited and is not reaped yet); true when it was killed for being late.
    func release(_ pid: pid_t) -> Bool {
        state.withLock { state in
            state.deadlines[pid] = nil
            return state.killed.remove(pid) != nil
        }
    }

    /// Kills every child still watched, and every child started from now on (the
    /// main thread may be about to start one): the run is being interrupted.
    func shutDown() {
        state.withLock { state in
            state.isShutDown = true
            for pid in state.deadlines.keys where !state.killed.contains(pid) {
                kill(pid, SIGKILL)
                state.killed.insert(pid)
            }
        }
    }

    private func killOverdue() {
        let now = Monotonic.nanoseconds()
        state.withLock { state in
            for (pid, deadline) in state.deadlines where deadline < now && !state.killed.contains(pid) {
                kill(pid, SIGKILL)
                state.killed.insert(pid)
            }
        }
    }
}
