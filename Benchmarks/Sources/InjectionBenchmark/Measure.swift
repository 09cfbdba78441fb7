import Dispatch
import Foundation

/// Keeps a value alive in the optimizer's eyes, so the work that made it is not removed.
@inline(never)
@_optimize(none)
func blackHole<T>(_ value: T) {}

/// One thing to time: `run` makes the number of calls it is given (a loop of its own, so the
/// loop is as direct as the code it times), on `threads` threads at once, `calls` calls a round.
struct Measurement {
    let name: String
    let threads: Int
    let calls: Int
    let run: @Sendable (Int) -> Void
}

/// Nanoseconds per call of each measurement: the median over `rounds` rounds, where every round
/// times each measurement once, in turn. Interleaving matters on a shared machine: a burst of
/// load from elsewhere then lands on the baseline and the cases alike instead of on whichever
/// case happened to be running, so ratios within one run hold still.
///
/// With several threads, the time is the wall time of a round divided by the calls each thread
/// made.
func nanosecondsPerCall(rounds: Int, _ measurements: [Measurement]) -> [Double] {
    // One untimed call of each warms caches and lazily created state.
    for measurement in measurements {
        time(measurement, calls: min(measurement.calls, 10_000))
    }
    var samples = [[Double]](repeating: [], count: measurements.count)
    for _ in 0..<rounds {
        for (index, measurement) in measurements.enumerated() {
            samples[index].append(time(measurement, calls: measurement.calls))
        }
    }
    return samples.map { $0.sorted()[$0.count / 2] }
}

@discardableResult
private func time(_ measurement: Measurement, calls: Int) -> Double {
    let run = measurement.run
    let start = DispatchTime.now().uptimeNanoseconds
    if measurement.threads == 1 {
        run(calls)
    } else {
        DispatchQueue.concurrentPerform(iterations: measurement.threads) { _ in
            run(calls)
        }
    }
    let elapsed = DispatchTime.now().uptimeNanoseconds - start
    return Double(elapsed) / Double(calls)
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
