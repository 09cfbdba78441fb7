import Foundation
import ProviderABI
import Testing

struct DecimalAmountTests {
    @Test(arguments: [
        ("0", "0"),
        ("15840.01", "15840.01"),
        ("-1.5", "-1.5"),
        ("0.000000000000000001", "0.000000000000000001"),
        ("12345678901234567890123456789012345678", "12345678901234567890123456789012345678"),
        ("-99999999999999999999999999999999999999", "-99999999999999999999999999999999999999"),
        ("1234567890123456789.0123456789012345678", "1234567890123456789.0123456789012345678"),
        ("1.10", "1.1"),
        ("-0", "0"),
    ])
    func acceptsPlainDecimals(text: String, formatted: String) throws {
        let amount = try #require(DecimalAmount.parse(text))
        #expect(DecimalAmount.format(amount) == formatted)
    }

    @Test func leadingAndTrailingZerosAreNotSignificant() throws {
        let thirtyEight = "12345678901234567890123456789012345678"
        let padded = "000" + thirtyEight + ".000"
        let amount = try #require(DecimalAmount.parse(padded))
        #expect(DecimalAmount.format(amount) == thirtyEight)
        let small = try #require(DecimalAmount.parse("0.000" + thirtyEight))
        #expect(DecimalAmount.format(small) == "0.000" + thirtyEight)
    }

    @Test func parsesExactlyWhereBinaryFloatingPointWouldNot() throws {
        let tenth = try #require(DecimalAmount.parse("0.1"))
        let fifth = try #require(DecimalAmount.parse("0.2"))
        let sum = try #require(DecimalAmount.parse("0.3"))
        #expect(tenth + fifth == sum)
    }

    @Test(arguments: [
        "", "-", "1.", ".5", "+1", "1e5", "1E5", " 1", "1 ", "1,5", "1_000", "0x10", "NaN", "nan", "Infinity",
        "--1", "-+1", "1.2.3", "1-", "١٢", "１",
        "123456789012345678901234567890123456789",
        "1.23456789012345678901234567890123456789",
    ])
    func rejectsAnythingElse(text: String) {
        #expect(DecimalAmount.parse(text) == nil)
    }

    @Test func rejectsMoreSignificantDigitsThanTheMaximum() {
        #expect(DecimalAmount.maximumSignificantDigits == 38)
        let tooMany = String(repeating: "9", count: DecimalAmount.maximumSignificantDigits + 1)
        #expect(DecimalAmount.parse(tooMany) == nil)
        #expect(DecimalAmount.parse(String(tooMany.dropLast())) != nil)
    }

    @Test func rejectsMagnitudesDecimalCannotHold() {
        #expect(DecimalAmount.parse("1" + String(repeating: "0", count: 200)) == nil)
        #expect(DecimalAmount.parse("0." + String(repeating: "0", count: 200) + "1") == nil)
    }

    @Test func formatNeverUsesAnExponent() {
        let large = Decimal(sign: .plus, exponent: 25, significand: 1)
        #expect(DecimalAmount.format(large) == "10000000000000000000000000")
        let small = Decimal(sign: .minus, exponent: -20, significand: 5)
        #expect(DecimalAmount.format(small) == "-0.00000000000000000005")
    }

    @Test func formatUsesADotWhateverTheLocale() throws {
        let amount = try #require(DecimalAmount.parse("1234567.89"))
        #expect(DecimalAmount.format(amount) == "1234567.89")
    }
}
