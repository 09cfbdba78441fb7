import Foundation

/// ISO 8601 timestamps as quotes carry them: UTC, seconds, optional fraction.
public enum ISO8601Timestamp {
    /// Parses `2026-11-20T12:00:00Z`, `2026-11-20T12:00:00.250Z` or with an offset such as `+01:00`.
    public static func parse(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        return try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
    }

    /// `2026-11-20T12:00:00Z`, or with milliseconds when the date has them.
    public static func format(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let whole = milliseconds.truncatingRemainder(dividingBy: 1000) == 0
        let rounded = Date(timeIntervalSince1970: milliseconds / 1000)
        return rounded.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: !whole))
    }
}
