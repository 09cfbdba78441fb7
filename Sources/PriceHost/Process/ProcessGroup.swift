import FoundationEssentials
import Glibc

/// The probe's process group: it leads it, so whatever a plugin starts is in it.
enum ProcessGroup {
    /// Kills (SIGKILL) every other process in this process's group, found in
    /// /proc; returns how many. Used by the probe before it exits, so a plugin's
    /// leftover processes neither outlive the check nor hold its output open.
    static func killOthers() -> Int {
        let me = getpid()
        let group = getpgrp()
        guard group == me, let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return 0 }
        var killed = 0
        for entry in entries {
            guard let pid = Int32(entry), pid != me,
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // After "pid (comm)": state, ppid, pgrp.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, Int32(fields[2]) == group else { continue }
            if kill(pid, SIGKILL) == 0 { killed += 1 }
        }
        return killed
    }
}
