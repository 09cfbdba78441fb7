import Foundation
import ProviderABI
import PriceHostFuzzing
import Testing

/// Seeded, bounded fuzzing of ``JSONParser``: the only outcomes allowed are a
/// value that survives serialisation, or a ``JSONParseError`` that points
/// inside the input. See docs/FUZZING.md.
@Suite(.timeLimit(.minutes(5)))
struct JSONParserFuzzTests {
    static let corpus: [[UInt8]] = [
        #"{"plugins": ["libFileProvider.so", {"path": "/opt/x.so"}], "providers": {"file": {"path": "prices.json"}}}"#,
        #"{"data":{"base":"BTC","currency":"USD","amount":"15840.01"}}"#,
        #"[{"base":"BTC","currency":"USD","amount":"15840.01","timestamp":"2026-11-20T12:00:00Z"}, {"base":"eth","currency":"eur","amount":3120.5}]"#,
        #"{"BTC-USD": "15840.01", "ETH-USD": {"amount": "3120.5", "timestamp": "2026-11-20T12:00:00.250+01:00"}}"#,
        #"{"errors":[{"id":"not_found","message":"Invalid base currency"}]}"#,
        #"{"n": null, "t": true, "f": false, "x": -12.5e+3, "y": 0, "z": -0.0E-7, "big": 123456789012345678901234567890}"#,
        #"["\u00e9\ud83d\ude00", "tab\tnew\nline", "\"quoted\" \\ \/", "\u0000", "é€😀"]"#,
        "[[[[[[[[[[[]]]]]]]]]]]",
        "\u{FEFF}{\r\n  \"bom\": true,\r\n  \"crlf\": [1,\r\n 2]\r\n}\r\n",
        "  \"top-level string\"  ",
        "-0.5e-10",
        "{}",
    ].map { Array($0.utf8) }

    static let mutator = Mutator(corpus: corpus, tokens: Mutator.jsonTokens)

    @Test func mutatedDocumentsParseOrFailCleanly() throws {
        let run = try FuzzRun()
        let tally = run.loop("JSONParserFuzzTests/mutated", iterations: 15_000) { random, iteration in
            iteration < Self.corpus.count ? Self.corpus[iteration] : Self.mutator.mutate(using: &random)
        } describe: {
            FuzzText.describe($0)
        } check: {
            Self.check($0)
        }
        if tally.total >= Self.corpus.count {
            #expect(tally.values >= Self.corpus.count, "the unmutated corpus must parse: \(tally)")
        }
        #expect(tally.errors > 0, "mutation never produced invalid JSON: \(tally)")
    }

    @Test func randomBytesParseOrFailCleanly() throws {
        let run = try FuzzRun()
        let tally = run.loop("JSONParserFuzzTests/random", iterations: 6_000) { random, _ in
            Mutator.randomBytes(using: &random, alphabet: Array(#"{}[]":,-+.0123456789eE \#t\#n\#r\ubtrufalsn"#.utf8))
        } describe: {
            FuzzText.describe($0)
        } check: {
            Self.check($0)
        }
        #expect(tally.errors > 0)
    }

    @Test func generatedValuesSurviveSerialisation() throws {
        let run = try FuzzRun()
        let tally = run.loop("JSONParserFuzzTests/generated", iterations: 3_000) { random, _ in
            Array(Self.randomValue(using: &random, depth: 0).serialized.utf8)
        } describe: {
            FuzzText.describe($0)
        } check: { bytes in
            // Serialisations of valid values must parse: an error is a failure here.
            do {
                _ = try JSONParser.parse(bytes)
            } catch {
                return .problem("the serialisation of a generated value does not parse: \(error)")
            }
            return Self.check(bytes)
        }
        #expect(tally.errors == 0)
    }

    /// The property every input must have.
    static func check(_ bytes: [UInt8]) -> FuzzOutcome {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            // The error type is JSONParseError by the signature (typed throws); check where it points.
            if let problem = locationProblem(error, in: bytes) { return .problem(problem) }
            return .error
        }
        let text = value.serialized
        let reparsed: JSONValue
        do {
            reparsed = try JSONParser.parse(Array(text.utf8))
        } catch {
            return .problem("parsed, but the serialisation \(FuzzText.quoted(text)) does not parse: \(error)")
        }
        guard reparsed == value else {
            return .problem("the serialisation \(FuzzText.quoted(text)) parses to a different value: \(reparsed)")
        }
        guard reparsed.serialized == text else {
            return .problem("serialising twice differs: \(FuzzText.quoted(text)) then \(FuzzText.quoted(reparsed.serialized))")
        }
        return .value
    }

    /// Why `error`'s line and column are not a place in `bytes` (1-based, counted after a BOM), or `nil`.
    static func locationProblem(_ error: JSONParseError, in bytes: [UInt8]) -> String? {
        guard !error.reason.isEmpty else { return "an error without a reason: \(error)" }
        guard error.line >= 1, error.column >= 1 else { return "line and column must be 1 or more: \(error)" }
        var lineStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var line = 1
        var position = lineStart
        while line < error.line, position < bytes.count {
            if bytes[position] == UInt8(ascii: "\n") {
                line += 1
                lineStart = position + 1
            }
            position += 1
        }
        guard line == error.line else { return "line \(error.line) is past the input's \(line) line(s): \(error)" }
        let offset = lineStart + error.column - 1
        guard offset <= bytes.count else { return "column \(error.column) is past the end of the input (\(bytes.count) bytes): \(error)" }
        guard !bytes[lineStart..<offset].contains(UInt8(ascii: "\n")) else { return "column \(error.column) is past the end of line \(error.line): \(error)" }
        return nil
    }

    // MARK: Generated values

    static func randomValue(using random: inout SeededGenerator, depth: Int) -> JSONValue {
        switch random.below(depth >= 5 ? 4 : 6) {
        case 0: return .null
        case 1: return .bool(random.chance(1, in: 2))
        case 2: return .number(randomNumber(using: &random))
        case 3: return .string(randomString(using: &random))
        case 4: return .array((0..<random.below(5)).map { _ in randomValue(using: &random, depth: depth + 1) })
        default:
            return .object(JSONObject((0..<random.below(5)).map { _ in
                (randomString(using: &random), randomValue(using: &random, depth: depth + 1))
            }))
        }
    }

    /// Text matching RFC 8259's number grammar.
    static func randomNumber(using random: inout SeededGenerator) -> String {
        var text = random.chance(1, in: 3) ? "-" : ""
        if random.chance(1, in: 4) {
            text += "0"
        } else {
            text += String(random.below(9) + 1)
            text += digits(random.below(random.chance(1, in: 10) ? 400 : 20), using: &random)
        }
        if random.chance(1, in: 2) { text += "." + digits(random.below(12) + 1, using: &random) }
        if random.chance(1, in: 3) {
            text += random.pick(["e", "E"]) + random.pick(["", "+", "-"]) + digits(random.below(5) + 1, using: &random)
        }
        return text
    }

    static func digits(_ count: Int, using random: inout SeededGenerator) -> String {
        String((0..<count).map { _ in Character(Unicode.Scalar(UInt8(ascii: "0") + UInt8(random.below(10)))) })
    }

    /// Strings mixing ASCII, control characters, quotes, backslashes and scalars from every UTF-8 length.
    static func randomString(using random: inout SeededGenerator) -> String {
        let pools: [ClosedRange<UInt32>] = [0x20...0x7E, 0x00...0x1F, 0x7F...0x7F, 0x80...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFF, 0x10000...0x10FFFF]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<random.below(12) {
            if random.chance(1, in: 8) {
                scalars.append(random.pick(["\"", "\\", "/", "\u{2028}", "\u{FEFF}", "\u{301}", "é"] as [Unicode.Scalar]))
                continue
            }
            let pool = random.pick(pools)
            let value = pool.lowerBound + UInt32(random.below(Int(pool.upperBound - pool.lowerBound) + 1))
            if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
        }
        return String(scalars)
    }
}

/// ``DecimalAmount/parse(_:)`` on random and mutated text: it accepts exactly
/// `-?digits(.digits)?` with at most 38 significant digits, and what it
/// accepts it keeps exactly.
@Suite(.timeLimit(.minutes(5)))
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

/// ``AssetCode/normalized(_:)`` on random strings: only 2 to 10 ASCII letters
/// or digits pass, and they come back upper-cased.
@Suite(.timeLimit(.minutes(5)))
struct AssetCodeFuzzTests {
    @Test func onlyShortASCIIAlphanumericsPass() throws {
        let run = try FuzzRun()
        let pieces = ["BTC", "usd", "é", "ß", "ﬀ", "K", "ı", "İ", "../", "%2F", "-", " ", "\u{0}", "\n", "１", "٣", "😀", "e\u{301}", "\u{FEFF}"]
        let tally = run.loop("AssetCodeFuzzTests/normalized", iterations: 5_000) { random, _ in
            var text = ""
            for _ in 0..<random.below(5) {
                text += random.chance(1, in: 3) ? random.pick(pieces) : JSONParserFuzzTests.randomString(using: &random)
            }
            if random.chance(1, in: 2) {
                text = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.isASCII }))
            }
            return Array(text.utf8)
        } describe: {
            FuzzText.describe($0)
        } check: { bytes in
            let text = String(decoding: bytes, as: UTF8.self)
            let valid = (2...10).contains(bytes.count) && bytes.allSatisfy { byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            }
            switch AssetCode.normalized(text) {
            case nil:
                return valid ? .problem("rejected a valid code") : .error
            case let code?:
                guard valid else { return .problem("accepted \(FuzzText.quoted(code))") }
                guard code.wholeMatch(of: #/[A-Z0-9]{2,10}/#) != nil, code == text.uppercased() else {
                    return .problem("normalised to \(FuzzText.quoted(code))")
                }
                return .value
            }
        }
        #expect(tally.values > 0 && tally.errors > 0, "\(tally)")
    }
}
