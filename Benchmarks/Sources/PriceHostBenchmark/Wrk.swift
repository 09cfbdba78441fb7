import Foundation
import Glibc

/// wrk (https://github.com/wg/wrk), run as a child with `--latency`, and what its report says.
struct Wrk: Sendable {
    /// Where wrk is.
    let path: String

    /// Finds wrk on `PATH` (or `/usr/bin/wrk`); `nil` when it is not installed.
    static func find() -> Wrk? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"]
        return directories.map { "\($0)/wrk" }.first { (path: String) in access(path, X_OK) == 0 }.map { Wrk(path: $0) }
    }

    /// One run's figures.
    struct Result: Sendable {
        var requestsPerSecond: Double
        var p50Milliseconds: Double
        var p99Milliseconds: Double
        /// The largest latency wrk saw.
        var maxMilliseconds: Double
        /// Replies other than 2xx/3xx, and socket errors (connect, read, write, timeout): 0 for a clean run.
        var failures: Int

        var summary: String {
            String(format: "%.0f/s, p50 %.2f ms, p99 %.2f ms, max %.2f ms", requestsPerSecond, p50Milliseconds, p99Milliseconds, maxMilliseconds)
                + (failures > 0 ? ", \(failures) failure(s)" : "")
        }
    }

    /// `wrk -t THREADS -c CONNECTIONS -d SECONDSs --latency URL`.
    func run(_ scratch: ScratchDirectory, threads: Int = 1, connections: Int, seconds: Int, url: String) throws -> Result {
        let output = scratch.uniquePath("wrk", suffix: "out")
        let command = Command(path, ["-t\(threads)", "-c\(connections)", "-d\(seconds)s", "--latency", url])
        let ended = try Children.run(command, standardOutput: .file(output), standardError: .file(output), timeoutSeconds: Double(seconds) + 60)
        let text = ScratchDirectory.contents(of: output)
        guard ended.succeeded, let result = Self.parse(text) else {
            throw BenchmarkError("\(command) \(ended.endingDescription); it printed:\n\(text)")
        }
        return result
    }

    /// Reads wrk's report: `Requests/sec:`, the 50% and 99% lines of `Latency Distribution`, the
    /// max of the thread stats' `Latency` line, and its error counts.
    static func parse(_ text: String) -> Result? {
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        func words(after prefix: String) -> [Substring]? {
            lines.first { $0.hasPrefix(prefix) }.map { $0.dropFirst(prefix.count).split(separator: " ") }
        }
        guard let rate = words(after: "Requests/sec:")?.first.flatMap({ Double($0) }),
              let p50 = words(after: "50%")?.first.flatMap(milliseconds),
              let p99 = words(after: "99%")?.first.flatMap(milliseconds),
              let stats = words(after: "Latency"), stats.count >= 3, let max = milliseconds(stats[2]) else { return nil }
        var failures = words(after: "Non-2xx or 3xx responses:")?.first.flatMap { Int($0) } ?? 0
        // "Socket errors: connect 0, read 0, write 0, timeout 0"
        if let errors = words(after: "Socket errors:") {
            failures += errors.compactMap { Int($0.trimmingCharacters(in: CharacterSet(charactersIn: ","))) }.reduce(0, +)
        }
        return Result(requestsPerSecond: rate, p50Milliseconds: p50, p99Milliseconds: p99, maxMilliseconds: max, failures: failures)
    }

    /// `812.00us`, `1.23ms`, `2.00s` in milliseconds.
    static func milliseconds(_ text: Substring) -> Double? {
        for (unit, scale) in [("us", 0.001), ("ms", 1.0), ("s", 1000.0), ("m", 60_000.0)] where text.hasSuffix(unit) {
            return Double(text.dropLast(unit.count)).map { $0 * scale }
        }
        return nil
    }
}
