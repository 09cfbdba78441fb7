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

    /// What ``format(_:)`` makes of `parse(text)`, for a `text` that ``parse(_:)`` accepts, from the
    /// text itself: no leading zeros, no trailing zeros after the point, no point without digits after
    /// it, "0" for zero. `Decimal`'s own text is made digit by digit through divisions; streaming
    /// makes one per quote.
    public static func canonical(_ text: String) -> String {
        var utf8 = Array(text.utf8)
        let negative = utf8.first == UInt8(ascii: "-")
        if negative { utf8.removeFirst() }
        let point = utf8.firstIndex(of: UInt8(ascii: ".")) ?? utf8.endIndex
        var integer = utf8[..<point].drop { $0 == UInt8(ascii: "0") }
        var fraction = utf8[min(point + 1, utf8.endIndex)...]
        while fraction.last == UInt8(ascii: "0") { fraction.removeLast() }
        guard !integer.isEmpty || !fraction.isEmpty else { return "0" }
        if integer.isEmpty { integer = [UInt8(ascii: "0")][...] }
        var canonical: [UInt8] = negative ? [UInt8(ascii: "-")] : []
        canonical += integer
        if !fraction.isEmpty { canonical += [UInt8(ascii: ".")] + fraction }
        return String(decoding: canonical, as: UTF8.self)
    }

    /// The canonical text of `amount`: plain notation, '.' as separator, no exponent.
    public static func format(_ amount: Decimal) -> String {
        amount.description
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
