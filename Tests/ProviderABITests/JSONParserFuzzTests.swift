import Foundation
import ProviderABI
import PriceHostFuzzing
import PriceHostTestTraits
import Testing

/// Seeded, bounded fuzzing of ``JSONParser``: the only outcomes allowed are a
/// value that survives serialisation, or a ``JSONParseError`` that points
/// inside the input. See docs/FUZZING.md.
@Suite(.offThePool, .timeLimit(.minutes(5)))
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
