import FoundationEssentials

/// ISO 8601 timestamps as quotes carry them: UTC, seconds, optional fraction.
public enum ISO8601Timestamp {
    /// Parses `2026-11-20T12:00:00Z`, `2026-11-20T12:00:00.250Z` or with an offset such as `+01:00`;
    /// `nil` for anything else, or a date outside ``validRange``.
    public static func parse(_ text: String) -> Date? {
        if let date = parseCommonForm(text) { return date }
        // Foundation's parser carries a field out of range over into the next (`T09:62` is 10:02, `11-31` is
        // December 1st): a time that is not on the calendar is refused here first.
        guard calendarFields(Array(text.utf8)) != nil else { return nil }
        let date = (try? Date.ISO8601FormatStyle().parse(text)) ?? (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
        return date.flatMap { isValid($0) ? $0 : nil }
    }

    /// The fields of the `YYYY-MM-DDTHH:MM:SS` that `bytes` begin with, when they name a time that exists (years 0001
    /// on); every form either parser takes begins so. Before 1583, where Foundation's calendar is the Julian one, a day
    /// is only checked to be at most 31.
    private static func calendarFields(_ bytes: [UInt8]) -> (year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64)? {
        guard bytes.count >= 19, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A, bytes[16] == 0x3A,
              let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2),
              let hour = number(bytes, 11, 2), let minute = number(bytes, 14, 2), let second = number(bytes, 17, 2),
              year >= 1, (1...12).contains(month), day >= 1, day <= (year >= 1583 ? daysIn(month: month, year: year) : 31),
              hour <= 23, minute <= 59, second <= 59 else { return nil }
        return (year, month, day, hour, minute, second)
    }

    /// The decimal number in `count` bytes of `bytes` from `start`; `nil` unless all are digits.
    private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int64? {
        var value: Int64 = 0
        for byte in bytes[start..<(start + count)] {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int64(byte - 0x30)
        }
        return value
    }

    /// The forms quotes carry, by arithmetic: `YYYY-MM-DDTHH:MM:SS`, then `.` and 1 to 3
    /// digits or none, then `Z` or `±HH:MM` (under 18 hours, Foundation's limit), for years 1583 to 9999 and real dates.
    /// `nil` for anything else, which ``parse(_:)`` hands to Foundation's parser: setting
    /// up its calendar and time zone costs every process that reads a timestamp more
    /// than half a millisecond (and a read of /etc/localtime). Where both accept a text,
    /// they give the same date (ISO8601TimestampTests compares them).
    static func parseCommonForm(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 29, let (year, month, day, hour, minute, second) = calendarFields(bytes), year >= 1583 else {
            return nil
        }
        var index = 19
        var milliseconds: Int64 = 0
        if bytes[index] == 0x2E {
            var digits = 0
            index += 1
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                guard digits < 3 else { return nil }
                milliseconds = milliseconds * 10 + Int64(bytes[index] - 0x30)
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<3 { milliseconds *= 10 }
        }
        var offset: Int64 = 0
        if index == bytes.count - 1, bytes[index] == 0x5A {
            offset = 0
        } else if index == bytes.count - 6, bytes[index] == 0x2B || bytes[index] == 0x2D, bytes[index + 3] == 0x3A,
                  let hours = number(bytes, index + 1, 2), let minutes = number(bytes, index + 4, 2), hours <= 17, minutes <= 59 {
            offset = (hours * 3600 + minutes * 60) * (bytes[index] == 0x2B ? 1 : -1)
        } else {
            return nil
        }
        let seconds = daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        let date = Date(timeIntervalSince1970: TimeInterval(seconds) + TimeInterval(milliseconds) / 1000)
        return isValid(date) ? date : nil
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    package static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
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
        // Written into the string's own storage: a streaming host formats two times per quote.
        return String(unsafeUninitializedCapacity: 24) { text in
            var end = 0
            func put(_ value: Int64, _ width: Int) {
                var rest = value
                for position in stride(from: end + width - 1, through: end, by: -1) {
                    text[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                end += width
            }
            func put(_ character: Unicode.Scalar) {
                text[end] = UInt8(ascii: character)
                end += 1
            }
            // From 1583 to 9999 (the range is clamped above), a year has four digits.
            put(year, 4); put("-"); put(month, 2); put("-"); put(day, 2); put("T")
            put(secondOfDay / 3600, 2); put(":"); put(secondOfDay / 60 % 60, 2); put(":"); put(secondOfDay % 60, 2)
            if milliseconds != 0 { put("."); put(milliseconds, 3) }
            put("Z")
            return end
        }
    }

    /// 1583-01-01T00:00:00Z: from here on every calendar is the Gregorian one.
    static let gregorianSince: Int64 = -12_212_553_600

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard
    /// Hinnant's `civil_from_days`).
    package static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
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
