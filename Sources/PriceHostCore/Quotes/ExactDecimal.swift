import FoundationEssentials
import ProviderABI

/// A decimal number as all its digits and a power of ten, for arithmetic that must say exactly how it
/// rounds: `Decimal`'s own multiply and divide round to its 38-digit mantissa, silently. Cross rates
/// (``CrossRate``) use it; a product or quotient costs a few thousand digit operations.
struct ExactDecimal: Equatable {
    /// The significant digits, most significant first, each 0...9; no leading zero; empty for zero.
    private(set) var digits: [UInt8]
    /// The power of ten the digits, read as an integer, are scaled by.
    private(set) var exponent: Int
    /// The sign; never set for zero.
    private(set) var isNegative: Bool

    /// `value`, exactly (from its plain text, which `Decimal` writes without rounding).
    init(_ value: Decimal) {
        var digits: [UInt8] = []
        var exponent = 0, isNegative = false, afterPoint = false
        for byte in DecimalAmount.format(value).utf8 {
            switch byte {
            case UInt8(ascii: "-"): isNegative = true
            case UInt8(ascii: "."): afterPoint = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte - UInt8(ascii: "0")) }
                if afterPoint { exponent -= 1 }
            default: break
            }
        }
        self.init(digits: digits, exponent: exponent, isNegative: isNegative)
    }

    /// Digits without leading zeros and a power of ten; trailing zeros move into the exponent.
    private init(digits: [UInt8], exponent: Int, isNegative: Bool) {
        var digits = digits[...]
        while digits.first == 0 { digits.removeFirst() }
        var exponent = exponent
        while digits.last == 0 {
            digits.removeLast()
            exponent += 1
        }
        self.digits = Array(digits)
        self.exponent = digits.isEmpty ? 0 : exponent
        self.isNegative = digits.isEmpty ? false : isNegative
    }

    /// Whether it is zero.
    var isZero: Bool { digits.isEmpty }

    /// `self × other`, exact: as many digits as it takes.
    func multiplied(by other: ExactDecimal) -> ExactDecimal {
        guard !isZero, !other.isZero else { return ExactDecimal(digits: [], exponent: 0, isNegative: false) }
        // Least significant first while multiplying; each column stays far below Int's range (at most 9 × 9 × 76).
        var columns = [Int](repeating: 0, count: digits.count + other.digits.count)
        for (i, a) in digits.reversed().enumerated() {
            for (j, b) in other.digits.reversed().enumerated() { columns[i + j] += Int(a) * Int(b) }
        }
        var carry = 0
        for index in columns.indices {
            let sum = columns[index] + carry
            columns[index] = sum % 10
            carry = sum / 10
        }
        return ExactDecimal(digits: columns.reversed().map { UInt8($0) }, exponent: exponent + other.exponent,
                            isNegative: isNegative != other.isNegative)
    }

    /// `self ÷ divisor` rounded half-even to `significantDigits` significant digits; `nil` when `divisor` is zero.
    ///
    /// Long division, one quotient digit at a time, until every digit of `self` is used and one digit past
    /// `significantDigits` is known; the remainder then says whether anything non-zero follows it.
    func divided(by divisor: ExactDecimal, significantDigits: Int) -> ExactDecimal? {
        guard !divisor.isZero else { return nil }
        guard !isZero else { return self }
        var quotient: [UInt8] = []
        var remainder: [UInt8] = []  // most significant first, no leading zeros
        var fed = 0
        while fed < digits.count || quotient.count < significantDigits + 1 {
            remainder.append(fed < digits.count ? digits[fed] : 0)
            fed += 1
            while remainder.first == 0 { remainder.removeFirst() }
            var digit: UInt8 = 0
            while Self.compare(remainder, divisor.digits) >= 0 {
                remainder = Self.subtract(divisor.digits, from: remainder)
                digit += 1
            }
            if !(quotient.isEmpty && digit == 0) { quotient.append(digit) }
        }
        // `quotient` is the integer floor(digits × 10^(fed - digits.count) / divisor.digits).
        return Self.rounding(quotient, exponent: exponent - divisor.exponent - (fed - digits.count),
                             isNegative: isNegative != divisor.isNegative, to: significantDigits, moreFollows: !remainder.isEmpty)
    }

    /// Rounded half-even to `significantDigits` significant digits (unchanged when it has no more).
    func rounded(toSignificantDigits significantDigits: Int) -> ExactDecimal {
        Self.rounding(digits, exponent: exponent, isNegative: isNegative, to: significantDigits, moreFollows: false)
    }

    /// `digits` (no leading zero) × 10^`exponent`, rounded half-even to `significantDigits`, knowing that
    /// something non-zero follows the last digit when `moreFollows` (a division's remainder).
    private static func rounding(_ digits: [UInt8], exponent: Int, isNegative: Bool, to significantDigits: Int,
                                 moreFollows: Bool) -> ExactDecimal {
        guard digits.count > significantDigits else {
            // A division always has a digit past those kept, so `moreFollows` alone never rounds here.
            return ExactDecimal(digits: digits, exponent: exponent, isNegative: isNegative)
        }
        var kept = Array(digits[..<significantDigits])
        let first = digits[significantDigits]
        let sticky = moreFollows || digits[(significantDigits + 1)...].contains { $0 != 0 }
        if first > 5 || (first == 5 && (sticky || kept[kept.count - 1] % 2 == 1)) {
            var index = kept.count - 1
            while index >= 0, kept[index] == 9 {
                kept[index] = 0
                index -= 1
            }
            if index >= 0 { kept[index] += 1 } else { kept.insert(1, at: 0) }
        }
        return ExactDecimal(digits: kept, exponent: exponent + digits.count - significantDigits, isNegative: isNegative)
    }

    /// As a `Decimal`: rounded half-even to its 38 significant digits when it has more; `nil` when the
    /// power of ten is outside what `Decimal` holds (-128...127 for the 38-digit integer).
    var decimal: Decimal? {
        let fitted = rounded(toSignificantDigits: DecimalAmount.maximumSignificantDigits)
        guard !fitted.isZero else { return Decimal(0) }
        guard (-128...127).contains(fitted.exponent),
              let significand = Decimal(string: String(decoding: fitted.digits.map { $0 + UInt8(ascii: "0") }, as: UTF8.self)) else {
            return nil
        }
        return Decimal(sign: fitted.isNegative ? .minus : .plus, exponent: fitted.exponent, significand: significand)
    }

    /// Compares two digit strings read as integers (most significant first, no leading zeros).
    private static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return 0
    }

    /// `a - b` for integers as digit strings with `a >= b`, without leading zeros.
    private static func subtract(_ b: [UInt8], from a: [UInt8]) -> [UInt8] {
        var result = a
        var borrow: Int = 0
        var offset = 0
        while offset < result.count {
            let index = result.count - 1 - offset
            let subtrahend = offset < b.count ? Int(b[b.count - 1 - offset]) : 0
            var value = Int(result[index]) - subtrahend - borrow
            borrow = value < 0 ? 1 : 0
            if value < 0 { value += 10 }
            result[index] = UInt8(value)
            offset += 1
        }
        while result.first == 0 { result.removeFirst() }
        return result
    }
}
