import Foundation

/// ISO 8601 timestamps as quotes carry them: UTC, seconds, optional fraction.
public enum ISO8601Timestamp {
    /// Parses `2026-11-20T12:00:00Z`, `2026-11-20T12:00:00.250Z` or with an offset such as `+01:00`.
    public static func parse(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        return try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
    }

    /// `2026-11-20T12:00:00Z`, or with milliseconds when the date has them (rounded to the nearest).
    public static func format(_ date: Date) -> String {
        // Whole milliseconds as an integer: formatting the binary seconds
        // directly truncates, printing .001 as .000.
        let totalMilliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        var seconds = totalMilliseconds / 1000
        var milliseconds = totalMilliseconds % 1000
        if milliseconds < 0 {
            milliseconds += 1000
            seconds -= 1
        }
        let whole = Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(Date.ISO8601FormatStyle())
        guard milliseconds != 0 else { return whole }
        let digits = String(milliseconds)
        return whole.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }
}
