import FoundationEssentials

/// Timestamps that APIs send as a count of seconds or milliseconds since
/// 1970-01-01T00:00:00Z, as a JSON number or a string of digits.
public enum UnixTimestamp {
    /// What one unit of the count is.
    public enum Unit: Sendable {
        /// Seconds since the epoch (Bitstamp's `timestamp`, CoinGecko's `last_updated_at`).
        case seconds
        /// Milliseconds since the epoch (Gemini's `volume.timestamp`).
        case milliseconds
    }

    /// The date `text` stands for, counted in `unit`: `"1700000000"` in
    /// seconds, `1700000000123` in milliseconds; a fraction (`1700000000.5`) and
    /// JSON's exponent notation are read exactly.
    /// - Returns: `nil` when `text` is not a non-negative number or the date
    ///   falls outside ``ISO8601Timestamp/validRange``.
    public static func parse(_ text: String, unit: Unit) -> Date? {
        guard let plain = DecimalAmount.plainNotation(ofJSONNumber: text), !plain.hasPrefix("-") else { return nil }
        let parts = plain.split(separator: ".", maxSplits: 1)
        // Past 15 digits of seconds the date is out of range anyway.
        guard parts[0].count <= 15, let whole = Int64(parts[0]) else { return nil }
        // Milliseconds matter to a quote, microseconds do not: 6 digits of fraction at most.
        let fractionDigits = parts.count == 2 ? String(parts[1].prefix(6)) : ""
        // A timestamp, not money: a binary float is what Date holds anyway.
        let fraction = fractionDigits.isEmpty ? 0 : Double("0." + fractionDigits) ?? 0
        let seconds: Double = switch unit {
        case .seconds: Double(whole) + fraction
        case .milliseconds: (Double(whole) + fraction) / 1000
        }
        let date = Date(timeIntervalSince1970: seconds)
        return ISO8601Timestamp.isValid(date) ? date : nil
    }
}
