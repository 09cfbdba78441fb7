import PriceHostCore

/// A duration as the command line takes it (`--heartbeat 60s`, `--max-age 30s`): a number with at
/// most 3 decimals and a unit, `ms`, `s`, `m` or `h`; a bare number is seconds. One parser for every
/// flag that takes a duration.
enum DurationOption {
    /// `text` as a duration; `nil` for anything else (a negative number, an unknown unit, more than a day… is the caller's range).
    static func parse(_ text: String) -> Duration? {
        let units: [(suffix: String, milliseconds: Int)] = [("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000)]
        let unit = units.first { text.hasSuffix($0.suffix) && !(($0.suffix == "s") && text.hasSuffix("ms")) }
        let number = String(text.dropLast(unit?.suffix.count ?? 0))
        let scale = unit?.milliseconds ?? 1_000
        if scale == 1 {
            // Milliseconds: whole ones only.
            guard (1...9).contains(number.count), number.allSatisfy({ ("0"..."9").contains($0) }), let value = Int(number) else { return nil }
            return .milliseconds(value)
        }
        // Durations.milliseconds reads seconds with up to 3 decimals: scaled, the same digits are minutes or hours.
        guard let thousandths = Durations.milliseconds(number) else { return nil }
        let (total, overflow) = thousandths.multipliedReportingOverflow(by: scale / 1_000)
        return overflow ? nil : .milliseconds(total)
    }

    /// What a usage error says the value must be.
    static func rule(_ flag: String, range: String) -> String {
        "\(flag) must be a duration from \(range), a number with s, m, h or ms (e.g. 60s, 1.5m; a bare number is seconds)"
    }
}
