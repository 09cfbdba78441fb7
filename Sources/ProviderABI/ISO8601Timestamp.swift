import FoundationEssentials

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
        // By arithmetic, not Date.ISO8601FormatStyle, whose calendar and time zone
        // cost more than half a millisecond to set up in every process that prints a
        // quote. Before 1583 Foundation's calendar is Julian, and the parser is
        // Foundation's: there the formatter is too, so that both agree.
        guard seconds >= gregorianSince else {
            let whole = Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(Date.ISO8601FormatStyle())
            return milliseconds == 0 ? whole : whole.dropLast() + "." + padded(milliseconds, 3) + "Z"
        }
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(daysSince1970: days)
        var text = padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2) + "T"
            + padded(secondOfDay / 3600, 2) + ":" + padded(secondOfDay / 60 % 60, 2) + ":" + padded(secondOfDay % 60, 2)
        if milliseconds != 0 { text += "." + padded(milliseconds, 3) }
        return text + "Z"
    }

    /// 1583-01-01T00:00:00Z: from here on every calendar is the Gregorian one.
    static let gregorianSince: Int64 = -12_212_553_600

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard
    /// Hinnant's `civil_from_days`).
    static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
