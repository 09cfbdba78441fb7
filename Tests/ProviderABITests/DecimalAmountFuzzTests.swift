import Foundation
import ProviderABI
import PriceHostFuzzing
import PriceHostTestTraits
import Testing

/// ``DecimalAmount/parse(_:)`` on random and mutated text: it accepts exactly
/// `-?digits(.digits)?` with at most 38 significant digits, and what it
/// accepts it keeps exactly.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct DecimalAmountFuzzTests {
    static let corpus: [[UInt8]] = ["15840.01", "-0.5", "0", "-0", "007.100", "0.000000000000000001",
                                    "99999999999999999999999999999999999999", "1" + String(repeating: "0", count: 120),
                                    "0." + String(repeating: "0", count: 100) + "1", "12345678901234567890.123456789012345678"]
        .map { Array($0.utf8) }

    static let mutator = Mutator(corpus: corpus, tokens: Mutator.numberTokens)

    @Test func parseAcceptsExactlyTheGrammarAndKeepsTheValue() throws {
        let run = try FuzzRun()
        let tally = run.loop("DecimalAmountFuzzTests/parse", iterations: 10_000) { random, iteration in
            if iteration < Self.corpus.count { return Self.corpus[iteration] }
            if random.chance(1, in: 2) { return Self.mutator.mutate(using: &random) }
            return Array(Self.randomDecimalText(using: &random).utf8)
        } describe: {
            FuzzText.describe($0)
        } check: { bytes in
            let text = String(decoding: bytes, as: UTF8.self)
            let expected = Self.canonical(text)
            guard let amount = DecimalAmount.parse(text) else {
                if let expected, expected.mustBeAccepted {
                    return .problem("rejected, but it is a decimal of \(expected.digits.count) significant digits and exponent \(expected.exponent)")
                }
                return .error
            }
            guard let expected else { return .problem("accepted \(amount), but the text is not -?digits(.digits)? with at most 38 significant digits") }
            let formatted = DecimalAmount.format(amount)
            guard let written = Self.canonical(formatted), written == expected else {
                return .problem("not kept exactly: formatted as \(formatted)")
            }
            return .value
        }
        #expect(tally.values > 0 && tally.errors > 0, "\(tally)")
    }

    /// A number as sign, significant digits and exponent (`digits × 10^exponent`),
    /// or `nil` when `text` is not `-?digits(.digits)?` with at most 38 significant digits.
    struct Canonical: Equatable {
        var negative: Bool
        var digits: [UInt8]
        var exponent: Int
        /// True when neither part as written, leading zeros aside, has more than 38 digits.
        var isShort = true

        /// What `parse` must accept: numbers whose written form `Decimal` holds
        /// directly. Longer runs of zeros (`0.` and 165 zeros) may be refused:
        /// `Decimal(string:)` gives `nil` when the written exponent leaves -128...127.
        var mustBeAccepted: Bool { isShort }

        static func == (left: Canonical, right: Canonical) -> Bool {
            (left.negative, left.digits, left.exponent) == (right.negative, right.digits, right.exponent)
        }
    }

    static func canonical(_ text: String) -> Canonical? {
        var bytes = Array(text.utf8)[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        let integer = bytes.prefix(while: isDigit)
        var fraction: ArraySlice<UInt8> = []
        let rest = bytes.dropFirst(integer.count)
        guard !integer.isEmpty else { return nil }
        if !rest.isEmpty {
            guard rest.first == UInt8(ascii: "."), rest.count > 1, rest.dropFirst().allSatisfy(isDigit) else { return nil }
            fraction = rest.dropFirst()
        }
        var digits = Array(integer.drop { $0 == UInt8(ascii: "0") })
        var exponent = 0
        if digits.isEmpty {
            digits = Array(fraction.drop { $0 == UInt8(ascii: "0") })
            exponent = -fraction.count
        } else {
            digits += fraction
            exponent = -fraction.count
        }
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        guard digits.count <= 38 else { return nil }
        let isShort = integer.drop { $0 == UInt8(ascii: "0") }.count <= 38 && fraction.count <= 38
        return digits.isEmpty
            ? Canonical(negative: false, digits: [], exponent: 0, isShort: isShort)
            : Canonical(negative: negative, digits: digits, exponent: exponent, isShort: isShort)
    }

    static func randomDecimalText(using random: inout SeededGenerator) -> String {
        func run(_ random: inout SeededGenerator) -> String {
            let count = random.chance(1, in: 8) ? random.below(200) : random.below(25)
            let zeros = random.chance(1, in: 3) ? String(repeating: "0", count: random.below(60)) : ""
            return random.chance(1, in: 2) ? zeros + JSONParserFuzzTests.digits(count, using: &random) : JSONParserFuzzTests.digits(count, using: &random) + zeros
        }
        var text = random.chance(1, in: 4) ? "-" : ""
        text += run(&random)
        if random.chance(2, in: 3) { text += "." + run(&random) }
        return text
    }
}
