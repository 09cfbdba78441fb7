import Foundation

/// ISO 8601 timestamps as quotes carry them: UTC, seconds, optional fraction.
public enum ISO8601Timestamp {
    /// Parses `2026-11-20T12:00:00Z`, `2026-11-20T12:00:00.250Z` or with an offset such as `+01:00`;
    /// `nil` for anything else, or a date outside ``validRange``.
    public static func parse(_ text: String) -> Date? {
        let date = (try? Date.ISO8601FormatStyle().parse(text)) ?? (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
        return date.flatMap { isValid($0) ? $0 : nil }
    }

    /// The dates a quote may carry: years 0001 to 9999, what ISO 8601 writes with four digits.
    public static let validRange = Date(timeIntervalSince1970: -62_135_596_800)...Date(timeIntervalSince1970: 253_402_300_799.999)

    /// True when `date` is within ``validRange``.
    public static func isValid(_ date: Date) -> Bool {
        validRange.contains(date)
    }

    /// `2026-11-20T12:00:00Z`, or with milliseconds when the date has them (rounded to the nearest).
    /// A date outside ``validRange`` is clamped to it, so the result is always valid ISO 8601.
    public static func format(_ date: Date) -> String {
        let date = min(max(date, validRange.lowerBound), validRange.upperBound)
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
