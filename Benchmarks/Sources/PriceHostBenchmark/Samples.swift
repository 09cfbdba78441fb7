import Glibc

/// Monotonic time (CLOCK_MONOTONIC), which wall-clock changes do not move.
enum Monotonic {
    /// Nanoseconds since an arbitrary fixed point.
    static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// Sleeps until `deadline` (``nanoseconds()``).
    static func sleep(until deadline: UInt64) {
        var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil) == EINTR {}
    }
}

/// Repeated measurements of one thing, sorted; the figures read from them.
struct Samples: Sendable {
    let sorted: [Double]

    /// - Precondition: `values` is not empty (a case that measured nothing is a bug here).
    init(_ values: [Double]) {
        precondition(!values.isEmpty, "no samples")
        sorted = values.sorted()
    }

    var count: Int { sorted.count }
    var median: Double { percentile(0.5) }
    var low: Double { percentile(0.25) }
    var high: Double { percentile(0.75) }

    /// The `fraction` quantile, interpolated between the two nearest samples
    /// (so the median of an odd count is the middle run itself).
    func percentile(_ fraction: Double) -> Double {
        let position = Double(sorted.count - 1) * fraction
        let below = Int(position.rounded(.down))
        let above = min(below + 1, sorted.count - 1)
        let weight = position - Double(below)
        return sorted[below] * (1 - weight) + sorted[above] * weight
    }
}
