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
        guard let shape = shape(of: text) else { return nil }
        // Up to 19 significant digits the Decimal is made from them as an integer and a power of ten:
        // the same Decimal, bit for bit (DecimalAmountTests checks it), for a fifth of the work (a
        // streaming host parses one per quote). No locale either way: with none, '.' is the separator.
        // Making a Locale costs over a millisecond the first time (ICU), in every process that parses a price.
        if let significand = shape.significand {
            return Decimal(sign: shape.negative ? .minus : .plus, exponent: shape.exponent, significand: Decimal(significand))
        }
        return Decimal(string: text)
    }

    /// Whether ``parse(_:)`` accepts `text` and its amount is above zero, known from its characters
    /// where that is certain (up to 100 of them), so that no `Decimal` is made: a plugin checks the
    /// text it passes on, and the host, which checks it again, makes the one `Decimal` of the quote.
    public static func isPositive(_ text: String) -> Bool {
        guard let shape = shape(of: text), !shape.negative, shape.significantDigits > 0 else { return false }
        // Within 100 characters the exponent is well inside Decimal's range, and Decimal(string:) is exact.
        return text.utf8.count <= 100 || (parse(text).map { $0 > 0 } ?? false)
    }

    /// What `text` is when it is `-?digits(.digits)?` with at most ``maximumSignificantDigits``
    /// significant digits: its sign, how many significant digits, and, for 1 to 19 of them in at most
    /// 100 characters (an exponent well inside Decimal's), those digits as an integer and the power
    /// of ten they are scaled by. `nil` for any other text.
    private static func shape(of text: String) -> (negative: Bool, significantDigits: Int, significand: UInt64?, exponent: Int)? {
        var text = text
        return text.withUTF8 { bytes in
            var index = 0
            let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            let integerStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > integerStart else { return nil }
            let point = index
            if index < bytes.count {
                guard bytes[index] == UInt8(ascii: ".") else { return nil }
                index += 1
                let fractionStart = index
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
                guard index > fractionStart, index == bytes.count else { return nil }
            }
            // From the first non-zero digit to the last, the point not counted.
            guard let first = bytes[integerStart...].firstIndex(where: { $0 > UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                  let last = bytes.lastIndex(where: { $0 > UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                return (negative, 0, nil, 0)
            }
            let significant = last - first + 1 - (first < point && point < last ? 1 : 0)
            guard significant <= maximumSignificantDigits else { return nil }
            guard significant <= 19, bytes.count <= 100 else { return (negative, significant, nil, 0) }
            var significand: UInt64 = 0
            for position in first...last where position != point {
                significand = significand * 10 + UInt64(bytes[position] - UInt8(ascii: "0"))
            }
            // The last significant digit's place: zeros after it in the integer part, or its place after the point.
            let exponent = last < point ? point - 1 - last : -(last - point)
            return (negative, significant, significand, exponent)
        }
    }

    /// What ``format(_:)`` makes of `parse(text)`, for a `text` that ``parse(_:)`` accepts, from the
    /// text itself: no leading zeros, no trailing zeros after the point, no point without digits after
    /// it, "0" for zero. `Decimal`'s own text is made digit by digit through divisions; streaming
    /// makes one per quote.
    public static func canonical(_ text: String) -> String {
        var text = text
        return text.withUTF8 { utf8 in
            let negative = utf8.first == UInt8(ascii: "-")
            let point = utf8.firstIndex(of: UInt8(ascii: ".")) ?? utf8.count
            var integerStart = negative ? 1 : 0
            while integerStart < point, utf8[integerStart] == UInt8(ascii: "0") { integerStart += 1 }
            var fractionEnd = utf8.count
            while fractionEnd > point + 1, utf8[fractionEnd - 1] == UInt8(ascii: "0") { fractionEnd -= 1 }
            let hasInteger = integerStart < point, hasFraction = fractionEnd > point + 1
            guard hasInteger || hasFraction else { return "0" }
            // Written into the string's own storage: one per streamed quote.
            return String(unsafeUninitializedCapacity: utf8.count + 1) { canonical in
                var end = 0
                func copy(_ range: Range<Int>) {
                    for index in range {
                        canonical[end] = utf8[index]
                        end += 1
                    }
                }
                if negative { copy(0..<1) }
                if hasInteger {
                    copy(integerStart..<point)
                } else {
                    canonical[end] = UInt8(ascii: "0")
                    end += 1
                }
                if hasFraction { copy(point..<fractionEnd) }
                return end
            }
        }
    }

    /// The canonical text of `amount`: plain notation, '.' as separator, no exponent.
    public static func format(_ amount: Decimal) -> String {
        amount.description
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
