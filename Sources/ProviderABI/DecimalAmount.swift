import FoundationEssentials

/// Exact parsing of prices written as decimal strings.
public enum DecimalAmount {
    /// The most significant digits `Decimal` holds without rounding.
    public static let maximumSignificantDigits = 38

    /// The rule ``parse(_:)`` applies, in words for messages.
    public static let rule = "-?digits(.digits)?, at most \(maximumSignificantDigits) significant digits"

    /// Parses `text` as `-?digits(.digits)?`, exactly.
    ///
    /// No exponent, no spaces, no grouping, no leading '+', at most
    /// ``maximumSignificantDigits`` significant digits (more would be rounded
    /// silently, which is worse for money than an error).
    /// - Returns: `nil` when `text` is not such a number.
    public static func parse(_ text: String) -> Decimal? {
        let bytes = Array(text.utf8)
        var index = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        guard index > integerStart else { return nil }
        if index < bytes.count {
            guard bytes[index] == UInt8(ascii: ".") else { return nil }
            index += 1
            let fractionStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > fractionStart, index == bytes.count else { return nil }
        }
        let digits = bytes[integerStart...].filter(isDigit)
        let significant = digits.drop { $0 == UInt8(ascii: "0") }
        let trimmed = significant.reversed().drop { $0 == UInt8(ascii: "0") }
        guard trimmed.count <= maximumSignificantDigits else { return nil }
        // No locale: with none, '.' is the separator. Making a Locale costs over a
        // millisecond the first time (ICU), in every process that parses a price.
        return Decimal(string: text)
    }

    /// The canonical text of `amount`: plain notation, '.' as separator, no exponent.
    public static func format(_ amount: Decimal) -> String {
        amount.description
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
