import Foundation
import Glibc

/// The first lines of the report: when, on what, with how many runs.
enum RunHeader {
    static func print(_ context: BenchmarkContext) {
        var options = "runs \(context.runs)"
        if context.options.quick { options += " (--quick)" }
        if context.options.cases != Options().cases {
            options += ", only \(context.options.cases.map(\.rawValue).joined(separator: ","))"
        }
        Swift.print("pricehost-benchmark  \(localTime())  Linux \(kernelRelease())  \(cpuCount()) CPUs  load \(loadAverage())  \(options)")
        Swift.print("binaries: \(context.locations.binDirectory)")
        Swift.print("repository: \(context.locations.repository)")
        Swift.print("Figures are medians of whole-process runs (spawn to exit, CLOCK_MONOTONIC); ratios compare medians of")
        Swift.print("commands run interleaved in this same run; every command ran once untimed first, and had to succeed.")
    }

    private static func localTime() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M:%S %Z", &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func kernelRelease() -> String {
        var names = utsname()
        guard uname(&names) == 0 else { return "(unknown kernel)" }
        return withUnsafeBytes(of: &names.release) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    private static func cpuCount() -> Int {
        sysconf(Int32(_SC_NPROCESSORS_ONLN))
    }

    /// The 1, 5 and 15-minute load averages: `1.19 1.57 2.25`.
    static func loadAverage() -> String {
        var loads = [Double](repeating: 0, count: 3)
        guard getloadavg(&loads, 3) == 3 else { return "?" }
        return loads.map { String(format: "%.2f", $0) }.joined(separator: " ")
    }
}
