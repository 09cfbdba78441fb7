@testable import PriceHostStore
import Testing

/// The candles' fast comparison against the exact one it stands in for: every pair in the same order.
struct ScaledAmountTests {
    /// Amounts around the edges of what fits: 1 to 23 integer digits and 0 to 21 fraction digits, of 9s, of a 1 after
    /// zeros, and of a digit pattern, either sign; and forms the store never writes, which it reads by falling back.
    static let amounts: [String] = {
        var amounts = ["0", "-0", "0.0", "007.50", "5.", ".5", "1e3", "-", ""]
        for integerDigits in [1, 2, 9, 17, 18, 19, 23] {
            for fractionDigits in [0, 1, 2, 9, 17, 18, 21] {
                for digit in ["9", "1", "7"] {
                    let integer = digit == "1" ? "1" + String(repeating: "0", count: integerDigits - 1) : String(repeating: digit, count: integerDigits)
                    let fraction = digit == "1" ? String(repeating: "0", count: max(0, fractionDigits - 1)) + (fractionDigits > 0 ? "1" : "")
                        : String(repeating: digit, count: fractionDigits)
                    let text = integer + (fraction.isEmpty ? "" : "." + fraction)
                    amounts += [text, "-" + text, "0." + fraction + "5"]
                }
            }
        }
        return amounts
    }()

    @Test func comparesEveryPairAsDecimalTextDoes() {
        var mismatches: [String] = []
        for left in Self.amounts {
            for right in Self.amounts where ScaledAmount.compare(ScaledAmount(left), left, ScaledAmount(right), right) != DecimalText.compare(left, right) {
                mismatches.append("\(left) vs \(right)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
        #expect(Self.amounts.count > 400)
    }
}
