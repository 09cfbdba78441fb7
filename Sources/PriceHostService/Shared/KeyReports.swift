import ConcurrencyHelpers

/// Which Redis keys were reported as bad, so that a bad key is logged once (or once per
/// ``interval``), not on every call that meets it. At most ``limit`` keys are remembered:
/// past that, new keys are not reported (a Redis full of bad keys must not fill memory or the log).
final class KeyReports: Sendable {
    static let limit = 10_000
    /// How soon a key is reported again; `nil`: never.
    let interval: Duration?
    private let reported = Lock<[String: ContinuousClock.Instant]>([:])

    init(every interval: Duration? = nil) {
        self.interval = interval
    }

    /// True when `key` is to be reported now (and notes that it was).
    func shouldReport(_ key: String) -> Bool {
        reported.withLock { reported in
            let now = ContinuousClock.now
            if let last = reported[key] {
                guard let interval, now - last >= interval else { return false }
            } else if reported.count >= Self.limit {
                return false
            }
            reported[key] = now
            return true
        }
    }
}
