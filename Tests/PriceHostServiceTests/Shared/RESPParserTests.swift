@testable import PriceHostService
import PriceHostFuzzing
import PriceHostTestTraits
import Testing

/// RESP2 out (commands) and in (replies), however the bytes are cut, and what is refused.
@Suite(.offThePool)
struct RESPParserTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func commandsAreArraysOfBulkStrings() {
        #expect(RESP.command(["SET", "k", "v a", "PX", "60000"]) == Self.bytes("*5\r\n$3\r\nSET\r\n$1\r\nk\r\n$3\r\nv a\r\n$2\r\nPX\r\n$5\r\n60000\r\n"))
        // Binary-safe: CRLF and non-ASCII in an argument are counted, not escaped.
        #expect(RESP.command(["GET", "a\r\nb", "é"]) == Self.bytes("*3\r\n$3\r\nGET\r\n$4\r\na\r\nb\r\n$2\r\né\r\n"))
        #expect(RESP.command([String]()) == Self.bytes("*0\r\n"))
    }

    @Test(arguments: [
        ("+OK\r\n", RESPValue.simple("OK")),
        ("-NOSCRIPT No matching script.\r\n", .error("NOSCRIPT No matching script.")),
        (":0\r\n", .integer(0)),
        (":-42\r\n", .integer(-42)),
        ("$5\r\nhello\r\n", .bulk(Array("hello".utf8))),
        ("$0\r\n\r\n", .bulk([])),
        ("$-1\r\n", .bulk(nil)),
        ("*-1\r\n", .array(nil)),
        ("*0\r\n", .array([])),
        ("$4\r\na\r\nb\r\n", .bulk(Array("a\r\nb".utf8))),
        ("*3\r\n:1\r\n$2\r\n{}\r\n:1500\r\n", .array([.integer(1), .bulk(Array("{}".utf8)), .integer(1500)])),
        ("*2\r\n*1\r\n+a\r\n*0\r\n", .array([.array([.simple("a")]), .array([])])),
    ])
    func repliesAreRead(text: String, expected: RESPValue) throws {
        #expect(try RESPParser.parse(Self.bytes(text)) == expected)
    }

    @Test func repliesCutAnywhereWaitForTheRest() throws {
        let text = Self.bytes("*3\r\n:1\r\n$11\r\n{\"v\":1}abcd\r\n:1500\r\n+OK\r\n")
        for cut in 0..<text.count {
            var parser = RESPParser()
            parser.append(text[..<cut])
            var values: [RESPValue] = []
            while let value = try parser.next() { values.append(value) }
            parser.append(text[cut...])
            while let value = try parser.next() { values.append(value) }
            #expect(values == [.array([.integer(1), .bulk(Array("{\"v\":1}abcd".utf8)), .integer(1500)]), .simple("OK")], "cut at \(cut)")
            #expect(parser.pendingByteCount == 0)
        }
    }

    @Test(arguments: [
        ("_\r\n", "unknown reply type byte 95 (RESP2 has + - : $ *)"),
        (":12a\r\n", "integer reply is not a number: \"12a\""),
        (":\r\n", "integer reply is not a number: \"\""),
        (":1234567890123456789\r\n", "integer reply is not a number: \"1234567890123456789\""),
        ("$-2\r\n", "bulk length is not a number: \"-2\""),
        ("$ 3\r\nabc\r\n", "bulk length is not a number: \" 3\""),
        ("$3\r\nabcd\r\n", "bulk string of 3 bytes is not followed by CRLF"),
        ("$99999999\r\n", "bulk string of 99999999 bytes is over the limit of 16777216"),
        ("*-5\r\n", "array length is not a number: \"-5\""),
        ("*2000000\r\n", "array of 2000000 elements is over the limit of 1048576"),
        ("+OK\rX", "CR not followed by LF"),
        ("+OK\n", "LF without CR"),
        (String(repeating: "*1\r\n", count: 17) + ":1\r\n", "arrays nested deeper than 16"),
    ])
    func malformedRepliesAreRefusedWithTheReason(text: String, reason: String) {
        #expect(throws: RESPParser.Malformed(description: reason)) { try RESPParser.parse(Self.bytes(text)) }
    }

    @Test func aLineWithoutEndIsRefusedPastTheLimit() throws {
        #expect(throws: RESPParser.Malformed(description: "a line over 65536 bytes")) {
            try RESPParser.parse(Self.bytes("+" + String(repeating: "a", count: 70_000)))
        }
        #expect(try RESPParser.parse(Self.bytes("+" + String(repeating: "a", count: 60_000))) == nil)
    }

    /// Any bytes: a value, a wait for more, or ``RESPParser/Malformed``; never a crash or a hang.
    @Test func fuzzedRepliesAlwaysHaveAnOutcome() throws {
        let run = try FuzzRun()
        let corpus = ["+OK\r\n", "-ERR wrong\r\n", ":1500\r\n", "$5\r\nhello\r\n", "$-1\r\n",
                      "*3\r\n:1\r\n$11\r\n{\"v\":1}abcd\r\n:1500\r\n", "*2\r\n*1\r\n+a\r\n*-1\r\n"].map(Self.bytes)
        let mutator = Mutator(corpus: corpus, tokens: Mutator.commonTokens + ["*", "$", ":", "+", "-", "*99999999\r\n", "$-1", "*1\r\n"].map(Self.bytes))
        let tally = run.loop("RESPParserTests/replies", iterations: 5_000) { random, iteration in
            iteration < corpus.count ? corpus[iteration] : mutator.mutate(using: &random)
        } describe: {
            FuzzText.describe($0)
        } check: { bytes in
            var parser = RESPParser()
            parser.append(bytes)
            do throws(RESPParser.Malformed) {
                // Bounded: each value read consumes at least 3 bytes.
                for _ in 0...bytes.count {
                    guard try parser.next() != nil else { break }
                }
                return parser.pendingByteCount <= bytes.count ? .value : .problem("pending \(parser.pendingByteCount) of \(bytes.count)")
            } catch {
                return error.description.isEmpty ? .problem("an empty reason") : .error
            }
        }
        #expect(tally.values > 0 && tally.errors > 0, "\(tally)")
    }
}
