import Foundation
import Glibc

/// The time the hypervisor ran something else while this machine's CPUs had work (`steal` in `/proc/stat`),
/// summed over the CPUs: on shared cores a round's p99 can measure the host's other guests more than
/// pricehost, and this says when it did.
enum HostSteal {
    /// Seconds of steal since boot (0 where no hypervisor takes any); nil when `/proc/stat` cannot be read or parsed.
    static func seconds() -> Double? {
        guard let file = fopen("/proc/stat", "r") else { return nil }
        defer { fclose(file) }
        var line = [UInt8](repeating: 0, count: 512)
        let read = line.withUnsafeMutableBytes { buffer in
            fgets(buffer.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(buffer.count), file) != nil
        }
        guard read else { return nil }
        let fields = String(decoding: line.prefix { $0 != 0 && $0 != UInt8(ascii: "\n") }, as: UTF8.self).split(separator: " ")
        // cpu user nice system idle iowait irq softirq steal ...
        guard fields.first == "cpu", fields.count > 8, let ticks = Double(fields[8]) else { return nil }
        let perSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        return perSecond > 0 ? ticks / perSecond : nil
    }
}
