import FoundationEssentials
import Glibc

/// Stops the children a process left running: `serve` starts none itself, but a plugin may
/// (a helper, a forked worker), and SIGTERM must not leave them behind, orphaned.
///
/// Children are read from `/proc/self/task/*/children` (Linux 3.5 and later, with
/// CONFIG_PROC_CHILDREN; without it none are found and nothing is done).
package enum ChildReaper {
    /// The pids of this process's children now.
    package static func children() -> [pid_t] {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return [] }
        var found: Set<pid_t> = []
        for task in tasks {
            guard let text = try? String(contentsOfFile: "/proc/self/task/\(task)/children", encoding: .utf8) else { continue }
            for field in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
                if let pid = pid_t(field) { found.insert(pid) }
            }
        }
        return found.sorted()
    }

    /// Sends SIGTERM to every child, waits up to `limit` for each to exit, then SIGKILLs the rest;
    /// each is reaped.
    /// - Returns: the children that had to be killed.
    @discardableResult
    package static func stopAll(within limit: Duration) -> [pid_t] {
        var running = children()
        for pid in running { kill(pid, SIGTERM) }
        let deadline = ContinuousClock.now + limit
        // Bounded by the deadline, in steps of 10 ms.
        while !running.isEmpty, ContinuousClock.now < deadline {
            running.removeAll { pid in
                var status: Int32 = 0
                let reaped = waitpid(pid, &status, WNOHANG)
                return reaped == pid || (reaped < 0 && errno == ECHILD)
            }
            if !running.isEmpty { usleep(10_000) }
        }
        for pid in running {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
        }
        return running
    }
}
