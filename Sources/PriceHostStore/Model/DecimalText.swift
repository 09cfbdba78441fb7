/// Exact arithmetic on amounts as the store keeps them: the text ``DecimalAmount/format(_:)``
/// writes, `-?digits(.digits)?`. Comparing two texts needs no `Decimal`, and a candle's high and
/// low are compared once per quote written.
package enum DecimalText {
    /// -1, 0 or 1 as `left` is below, equal to or above `right`. Both must be `-?digits(.digits)?`;
    /// leading zeros of the integer part and trailing zeros of the fraction do not matter.
    package static func compare(_ left: String, _ right: String) -> Int {
        var left = left, right = right
        return left.withUTF8 { a in right.withUTF8 { b in compare(a, b) } }
    }

    private static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let aNegative = a.first == UInt8(ascii: "-") && !isZero(a)
        let bNegative = b.first == UInt8(ascii: "-") && !isZero(b)
        if aNegative != bNegative { return aNegative ? -1 : 1 }
        let magnitude = compareMagnitude(a[(a.first == UInt8(ascii: "-") ? 1 : 0)...], b[(b.first == UInt8(ascii: "-") ? 1 : 0)...])
        return aNegative ? -magnitude : magnitude
    }

    private static func isZero(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
    }

    private static func compareMagnitude(_ a: Slice<UnsafeBufferPointer<UInt8>>, _ b: Slice<UnsafeBufferPointer<UInt8>>) -> Int {
        let (aInteger, aFraction) = split(a)
        let (bInteger, bFraction) = split(b)
        if aInteger.count != bInteger.count { return aInteger.count < bInteger.count ? -1 : 1 }
        for (x, y) in zip(aInteger, bInteger) where x != y { return x < y ? -1 : 1 }
        let length = max(aFraction.count, bFraction.count)
        for offset in 0..<length {
            let x = offset < aFraction.count ? aFraction[aFraction.startIndex + offset] : UInt8(ascii: "0")
            let y = offset < bFraction.count ? bFraction[bFraction.startIndex + offset] : UInt8(ascii: "0")
            if x != y { return x < y ? -1 : 1 }
        }
        return 0
    }

    /// The integer digits without leading zeros, and the fraction's digits.
    private static func split(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> (Slice<UnsafeBufferPointer<UInt8>>, Slice<UnsafeBufferPointer<UInt8>>) {
        let point = bytes.firstIndex(of: UInt8(ascii: ".")) ?? bytes.endIndex
        var integerStart = bytes.startIndex
        while integerStart < point, bytes[integerStart] == UInt8(ascii: "0") { integerStart += 1 }
        let fraction = point < bytes.endIndex ? bytes[(point + 1)...] : bytes[bytes.endIndex...]
        return (bytes[integerStart..<point], fraction)
    }

    /// `text` (`-?digits(.digits)?`) rounded to `places` decimal places, half to even, without trailing zeros
    /// (`"0.125"` to 2 places is `"0.12"`; `"2.5"` to 0 is `"2"`; `"-0.004"` to 2 is `"0"`).
    package static func rounded(_ text: String, places: Int) -> String {
        let negative = text.hasPrefix("-")
        let unsigned = negative ? text.dropFirst() : Substring(text)
        let parts = unsigned.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        var integer = Array(parts[0].utf8).map { Int($0) - 48 }
        let fraction = parts.count > 1 ? Array(parts[1].utf8).map { Int($0) - 48 } : []
        guard fraction.count > places else { return trimmed(text) }
        var kept = integer + fraction.prefix(places)
        let dropped = Array(fraction.dropFirst(places))
        let first = dropped[0]
        let beyondHalf = dropped.dropFirst().contains { $0 != 0 }
        let last = kept.last ?? 0
        let roundsUp = first > 5 || (first == 5 && (beyondHalf || last % 2 == 1))
        if roundsUp {
            var index = kept.count - 1
            while index >= 0 {
                if kept[index] == 9 { kept[index] = 0; index -= 1 } else { kept[index] += 1; break }
            }
            if index < 0 { kept.insert(1, at: 0); integer.insert(0, at: 0) }
        }
        let integerDigits = kept.prefix(integer.count).map(String.init).joined()
        let fractionDigits = kept.dropFirst(integer.count).map(String.init).joined()
        let body = trimmed((integerDigits.isEmpty ? "0" : integerDigits) + (fractionDigits.isEmpty ? "" : "." + fractionDigits))
        return negative && body != "0" ? "-" + body : body
    }

    /// Without trailing fraction zeros or a bare point, and without leading integer zeros.
    private static func trimmed(_ text: String) -> String {
        var text = Substring(text)
        let negative = text.hasPrefix("-")
        if negative { text = text.dropFirst() }
        if text.contains(".") {
            while text.hasSuffix("0") { text = text.dropLast() }
            if text.hasSuffix(".") { text = text.dropLast() }
        }
        while text.count > 1, text.hasPrefix("0"), !text.hasPrefix("0.") { text = text.dropFirst() }
        if text.isEmpty { text = "0" }
        return negative && text != "0" ? "-" + text : String(text)
    }
}
