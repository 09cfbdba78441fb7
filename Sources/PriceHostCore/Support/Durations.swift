/// Durations as the config and the command line write them.
package enum Durations {
    /// `SECONDS` as `digits[.digits]` with at most 3 decimals, in milliseconds; `nil` for anything else.
    package static func milliseconds(_ text: String) -> Int? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.count <= 6, whole.allSatisfy({ ("0"..."9").contains($0) }),
              let seconds = Int(whole) else { return nil }
        var fraction = 0
        if parts.count == 2 {
            let digits = parts[1]
            guard (1...3).contains(digits.count), digits.allSatisfy({ ("0"..."9").contains($0) }), let value = Int(digits) else { return nil }
            fraction = value * [100, 10, 1][digits.count - 1]
        }
        return seconds * 1000 + fraction
    }
}

extension Durations {
    /// `duration` in whole milliseconds (rounded toward zero).
    package static func milliseconds(of duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }

    /// `duration` in seconds for a message, to the millisecond: `0.5`, `2`, `30`.
    package static func seconds(_ duration: Duration) -> String {
        let milliseconds = milliseconds(of: duration)
        let whole = milliseconds / 1000, fraction = milliseconds % 1000
        guard fraction != 0 else { return String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }

    /// `duration` in seconds as a binary float, for metrics and arithmetic on times, never for money.
    package static func secondsValue(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
