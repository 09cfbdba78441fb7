import Foundation
import ProviderABI
import Testing

struct DecimalAmountJSONNumberTests {
    @Test(arguments: [
        ("1.234e-05", "0.00001234"), ("1.234E-5", "0.00001234"), ("1.234e+5", "123400"), ("12.5e1", "125"),
        ("-4.2e-3", "-0.0042"), ("0", "0"), ("-0", "0"), ("0e5", "0"), ("10", "10"), ("1.50", "1.5"),
        ("1e-100", "0." + String(repeating: "0", count: 99) + "1"), ("123456789012345678901234567890.12345678", "123456789012345678901234567890.12345678"),
    ])
    func plainNotationMovesThePointInTheText(number: String, plain: String) {
        #expect(DecimalAmount.plainNotation(ofJSONNumber: number) == plain)
    }

    @Test(arguments: ["", "-", "01", "1.", ".5", "+1", "1e", "1e+", "0x10", "1 ", "NaN", "Infinity", "1e101", "1e-101", "1e99999"])
    func whatIsNotAJSONNumberOrTooFarIsRefused(text: String) {
        #expect(DecimalAmount.plainNotation(ofJSONNumber: text) == nil)
        #expect(DecimalAmount.parse(jsonNumber: text) == nil)
    }

    @Test func parsedAmountIsExact() {
        #expect(DecimalAmount.parse(jsonNumber: "1.234e-05") == Decimal(sign: .plus, exponent: -8, significand: 1234))
        #expect(DecimalAmount.parse(jsonNumber: "0.1") == DecimalAmount.parse("0.1"))
        // Past 38 significant digits is refused, as in plain notation.
        #expect(DecimalAmount.parse(jsonNumber: "1.23456789012345678901234567890123456789e2") == nil)
    }
}
