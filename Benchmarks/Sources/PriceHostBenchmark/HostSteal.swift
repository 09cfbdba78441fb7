import Foundation
import Glibc

/// The time the hypervisor ran something else while this machine's CPUs had work (`steal` in `/proc/stat`),
/// summed over the CPUs: on shared cores a round's p99 can measure the host's other guests more than
/// pricehost, and this says when it did.
enum HostSteal {
    /// Seconds of steal since boot (0 where no hypervisor takes any); nil when `/proc/stat` cannot be read or parsed.
    static func seconds() -> Double? {
        let fields = ScratchDirectory.contents(of: "/proc/stat").prefix { $0 != "\n" }.split(separator: " ")
        // cpu user nice system idle iowait irq softirq steal ...
        guard fields.first == "cpu", fields.count > 8, let ticks = Double(fields[8]) else { return nil }
        let perSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        return perSecond > 0 ? ticks / perSecond : nil
    }
}
