import Dispatch
import Foundation

/// Keeps a value alive in the optimizer's eyes, so the work that made it is not removed.
@inline(never)
@_optimize(none)
func blackHole<T>(_ value: T) {}

/// Nanoseconds per call of `body`, the median of `rounds` rounds of `iterations` calls each.
func nanosecondsPerCall(rounds: Int, iterations: Int, _ body: () -> Void) -> Double {
    // One untimed round warms caches and lazily created state.
    for _ in 0..<min(iterations, 10_000) { body() }
    var samples: [Double] = []
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations { body() }
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        samples.append(Double(elapsed) / Double(iterations))
    }
    return samples.sorted()[samples.count / 2]
}

/// Nanoseconds per call on each of `threads` threads running `body` at the same time: the
/// wall time of a round divided by the calls each thread made; the median of `rounds` rounds.
func nanosecondsPerCallConcurrently(
    threads: Int, rounds: Int, iterations: Int, _ body: @Sendable @escaping () -> Void
) -> Double {
    var samples: [Double] = []
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<iterations { body() }
        }
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        samples.append(Double(elapsed) / Double(iterations))
    }
    return samples.sorted()[samples.count / 2]
}

/// The process's resident set size in kibibytes, from /proc/self/status.
func residentKilobytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
        return -1
    }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        let digits = line.filter(\.isNumber)
        return Int(digits) ?? -1
    }
    return -1
}
