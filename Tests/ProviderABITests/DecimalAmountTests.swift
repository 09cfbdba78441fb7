import Foundation
import PriceHostFuzzing
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

    @Test(arguments: ["0", "-0", "0.000", "-0.0", "007", "-007.50", "64000.12345678", "0.10", "100", "100.0", "-1.5", "0.000123",
                      "12345678901234567890123456789012345678", "000" + "12345678901234567890123456789012345678" + ".000",
                      // Past the exponents `Decimal` holds in its mantissa's 38 digits.
                      "1" + String(repeating: "0", count: 127), "1" + String(repeating: "0", count: 130),
                      "123" + String(repeating: "0", count: 140) + ".000", "0." + String(repeating: "0", count: 120) + "1"])
    func theCanonicalTextIsWhatFormatMakesOfTheParsedAmount(text: String) throws {
        #expect(DecimalAmount.canonical(text) == DecimalAmount.format(try #require(DecimalAmount.parse(text))))
    }

    @Test func theCanonicalTextAgreesWithFormatOnRandomAmounts() throws {
        // Seeded: 20,000 texts of up to 20 integer and 20 fraction digits, zeros weighted heavily, either sign.
        var random = SeededGenerator(seed: 0x5EED_2026_1126_0025)
        var checked = 0
        for _ in 0..<20_000 {
            func digits(_ count: Int) -> String {
                String((0..<count).map { _ in random.next() % 3 == 0 ? "0" : Character(String(random.next() % 10)) })
            }
            var text = (random.next() % 2 == 0 ? "-" : "") + digits(1 + Int(random.next() % 20))
            if random.next() % 3 != 0 { text += "." + digits(1 + Int(random.next() % 20)) }
            guard let amount = DecimalAmount.parse(text) else { continue }
            #expect(DecimalAmount.canonical(text) == DecimalAmount.format(amount), "\(text)")
            checked += 1
        }
        #expect(checked > 19_000)
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


/// ``DecimalAmount/isPositive(_:)``: what a plugin checks instead of parsing (issue 33.6).
struct DecimalAmountIsPositiveTests {
    @Test(arguments: ["64000.10", "0.00000001", "1", "007", "1.0", "0." + String(repeating: "0", count: 95) + "1",
                      "1" + String(repeating: "0", count: 120), "12345678901234567890123456789012345678"])
    func aPositiveAmountIs(text: String) {
        #expect(DecimalAmount.isPositive(text))
    }

    @Test(arguments: ["0", "0.000", "-0", "-1", "-0.5", "", "1.", ".5", "+1", "1e5", " 1", "1,5", "١٢",
                      "123456789012345678901234567890123456789", "0." + String(repeating: "0", count: 200) + "1"])
    func anythingElseIsNot(text: String) {
        #expect(!DecimalAmount.isPositive(text))
    }

    @Test func itAgreesWithParsingOnRandomTexts() {
        var random = SeededGenerator(seed: 0x5EED_2026_1127_0336)
        var positive = 0, long = 0
        for _ in 0..<20_000 {
            let text = Self.randomAmountText(using: &random)
            let parsed = DecimalAmount.parse(text).map { $0 > 0 } ?? false
            #expect(DecimalAmount.isPositive(text) == parsed, "\(text)")
            if parsed { positive += 1 }
            if parsed, text.utf8.count > 100 { long += 1 }
        }
        #expect(positive > 5_000 && long > 100, "\(positive) positive, \(long) of them over 100 characters")
    }

    /// `parse` makes short amounts from their digits, not through `Decimal(string:)`: the same `Decimal`, bit for bit.
    @Test func parsingMakesTheDecimalThatDecimalsOwnParserMakes() throws {
        var random = SeededGenerator(seed: 0x5EED_2026_1127_1640)
        var compared = 0
        for _ in 0..<20_000 {
            let text = Self.randomAmountText(using: &random)
            guard let amount = DecimalAmount.parse(text) else { continue }
            let expected = try #require(Decimal(string: text))
            let same = withUnsafeBytes(of: amount) { made in withUnsafeBytes(of: expected) { made.elementsEqual($0) } }
            #expect(same && amount == expected && amount.description == expected.description, "\(text): \(amount), Decimal's \(expected)")
            compared += 1
        }
        #expect(compared > 10_000)
    }

    /// Runs of zeros and of digits around an optional point, up to about 200 characters, with the odd sign or junk
    /// character: short and long texts, zero, negatives, more than 38 significant digits and exponents at Decimal's ends.
    static func randomAmountText(using random: inout SeededGenerator) -> String {
        func run(_ alphabet: String, _ most: UInt64) -> String {
            let characters = Array(alphabet)
            return String((0..<Int(random.next() % (most + 1))).map { _ in characters[Int(random.next() % UInt64(characters.count))] })
        }
        var text = (random.next() % 5 == 0 ? "-" : "") + run("0", 60) + run("0123456789", 25) + run("0", 60)
        if random.next() % 2 == 0 { text += "." + run("0", 60) + run("0123456789", 25) + run("0", 30) }
        if random.next() % 10 == 0 {
            var characters = Array(text)
            characters.insert(Array("e+ .x-")[Int(random.next() % 6)], at: Int(random.next() % UInt64(characters.count + 1)))
            text = String(characters)
        }
        return text
    }
}
