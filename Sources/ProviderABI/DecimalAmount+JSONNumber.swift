import FoundationEssentials

extension DecimalAmount {
    /// Parses the text of a JSON number exactly, exponent included: `1.234e-05`
    /// is `0.00001234`, `2E+3` is `2000`.
    ///
    /// The decimal point is moved in the text, never through a binary float;
    /// the result obeys ``parse(_:)`` (at most ``maximumSignificantDigits``).
    /// - Returns: `nil` when `text` is not a JSON number, or is too far from 1
    ///   (more than 100 digits in plain notation) to be a price.
    public static func parse(jsonNumber text: String) -> Decimal? {
        plainNotation(ofJSONNumber: text).flatMap { parse($0) }
    }

    /// `text`, a JSON number, in plain notation: `-?digits(.digits)?`, with no
    /// exponent, no leading zeros and no trailing fractional zeros.
    /// - Returns: `nil` when `text` is not a JSON number or its plain notation
    ///   would be longer than 100 digits.
    public static func plainNotation(ofJSONNumber text: String) -> String? {
        let bytes = Array(text.utf8)
        var index = 0
        func digits() -> [UInt8] {
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            return Array(bytes[start..<index])
        }
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let integer = digits()
        // JSON: no leading zero before other digits, no bare '.5'.
        guard !integer.isEmpty, integer.count == 1 || integer[0] != UInt8(ascii: "0") else { return nil }
        var fraction: [UInt8] = []
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            fraction = digits()
            guard !fraction.isEmpty else { return nil }
        }
        var exponent = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            var exponentNegative = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            let exponentDigits = digits()
            // More than 4 digits is far past any plain notation of 100 digits.
            guard !exponentDigits.isEmpty, exponentDigits.count <= 4,
                  let magnitude = Int(String(decoding: exponentDigits, as: UTF8.self)) else { return nil }
            exponent = exponentNegative ? -magnitude : magnitude
        }
        guard index == bytes.count else { return nil }

        let allDigits = integer + fraction
        // Where the point falls within allDigits once the exponent is applied.
        let point = integer.count + exponent
        guard point <= 100, point >= -100 else { return nil }
        var integerPart: [UInt8]
        var fractionPart: [UInt8]
        if point <= 0 {
            integerPart = []
            fractionPart = [UInt8](repeating: UInt8(ascii: "0"), count: -point) + allDigits
        } else if point >= allDigits.count {
            integerPart = allDigits + [UInt8](repeating: UInt8(ascii: "0"), count: point - allDigits.count)
            fractionPart = []
        } else {
            integerPart = Array(allDigits[..<point])
            fractionPart = Array(allDigits[point...])
        }
        integerPart = Array(integerPart.drop { $0 == UInt8(ascii: "0") })
        while fractionPart.last == UInt8(ascii: "0") { fractionPart.removeLast() }
        guard integerPart.count + fractionPart.count <= 100 else { return nil }
        if integerPart.isEmpty { integerPart = [UInt8(ascii: "0")] }
        let isZero = integerPart == [UInt8(ascii: "0")] && fractionPart.isEmpty
        var result = negative && !isZero ? "-" : ""
        result += String(decoding: integerPart, as: UTF8.self)
        if !fractionPart.isEmpty { result += "." + String(decoding: fractionPart, as: UTF8.self) }
        return result
    }
}
