import ProviderABI
import Testing

struct JSONParserTests {
    // MARK: Values

    @Test func parsesEveryValueKind() throws {
        let value = try JSONParser.parse(#"{"n": null, "t": true, "f": false, "x": -12.5e+3, "s": "hi", "a": [1, "two"], "o": {}}"#)
        let expected = JSONValue.object(JSONObject([
            ("n", .null),
            ("t", .bool(true)),
            ("f", .bool(false)),
            ("x", .number("-12.5e+3")),
            ("s", .string("hi")),
            ("a", .array([.number("1"), .string("two")])),
            ("o", .object(JSONObject())),
        ]))
        #expect(value == expected)
    }

    @Test func parsesScalarsAtTheTopLevel() throws {
        #expect(try JSONParser.parse("null") == .null)
        #expect(try JSONParser.parse(" true ") == .bool(true))
        #expect(try JSONParser.parse("\n\tfalse\r\n") == .bool(false))
        #expect(try JSONParser.parse(#""text""#) == .string("text"))
        #expect(try JSONParser.parse("[]") == .array([]))
        #expect(try JSONParser.parse("{ }") == .object(JSONObject()))
    }

    @Test(arguments: ["1e3", "-0.50", "15840.01", "0", "-0", "1E+10", "2.5e-3", "123456789012345678901234567890"])
    func keepsNumbersAsWritten(text: String) throws {
        #expect(try JSONParser.parse(text) == .number(text))
    }

    @Test func keepsObjectKeysInDocumentOrder() throws {
        let value = try JSONParser.parse(#"{"zeta": 1, "alpha": 2, "mid": 3}"#)
        guard case .object(let object) = value else {
            Issue.record("expected an object, got \(value)")
            return
        }
        #expect(object.keys == ["zeta", "alpha", "mid"])
    }

    @Test func decodesEverySimpleEscape() throws {
        #expect(try JSONParser.parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{08}\u{0C}\n\r\t"))
    }

    @Test func decodesUnicodeEscapesInEitherCase() throws {
        #expect(try JSONParser.parse(#""\u00e9\u00C9\u0041""#) == .string("éÉA"))
    }

    @Test func decodesASurrogatePair() throws {
        #expect(try JSONParser.parse(#""\uD83D\uDE00""#) == .string("😀"))
    }

    @Test func keepsRawUTF8InStrings() throws {
        #expect(try JSONParser.parse(#""Ça coûte 5 €, 😀""#) == .string("Ça coûte 5 €, 😀"))
    }

    @Test func acceptsAUTF8ByteOrderMark() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"{"a": 1}"#.utf8)
        #expect(try JSONParser.parse(bytes) == .object(JSONObject([("a", .number("1"))])))
    }

    @Test func parsesBytesAndTextAlike() throws {
        let text = #"[1, {"k": "v"}]"#
        #expect(try JSONParser.parse(Array(text.utf8)) == JSONParser.parse(text))
    }

    @Test func acceptsNestingOfExactlyTheMaximumDepth() throws {
        let depth = JSONParser.maximumDepth
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var value = try JSONParser.parse(text)
        var levels = 0
        while case .array(let elements) = value, levels <= depth {
            levels += 1
            guard let first = elements.first else { break }
            value = first
        }
        #expect(levels == depth)
    }

    @Test func roundTripsThroughSerialized() throws {
        let text = """
            {"price": {"amount": 15840.01, "small": -0.50, "big": 1e3},
             "list": [true, false, null, "quote \\" slash \\\\ line \\n tab \\t ctrl \\u0001 del \\u007F é 😀"],
             "empty": {}, "none": []}
            """
        let parsed = try JSONParser.parse(text)
        #expect(try JSONParser.parse(parsed.serialized) == parsed)
    }

    // MARK: Errors

    @Test func trailingCommaInAnArrayNamesTheClosingBracket() {
        #expect(throws: JSONParseError(line: 1, column: 4, reason: "unexpected ']', expected a value")) {
            try JSONParser.parse("[1,]")
        }
    }

    @Test func trailingCommaInAnObjectNamesTheLineOfTheClosingBrace() {
        #expect(throws: JSONParseError(line: 3, column: 1, reason: "expected a string key, found '}'")) {
            try JSONParser.parse("{\n  \"a\": 1,\n}")
        }
    }

    @Test func missingColonNamesTheKey() {
        #expect(throws: JSONParseError(line: 1, column: 6, reason: #"expected ':' after key "a", found '1'"#)) {
            try JSONParser.parse(#"{"a" 1}"#)
        }
    }

    @Test func missingCommaBetweenArrayElementsIsReported() {
        #expect(throws: JSONParseError(line: 1, column: 4, reason: "expected ',' or ']' after an array element, found '2'")) {
            try JSONParser.parse("[1 2]")
        }
    }

    @Test func unclosedObjectReportsTheEndOfInput() {
        #expect(throws: JSONParseError(line: 1, column: 7, reason: "expected ',' or '}' after an object member, found end of input")) {
            try JSONParser.parse(#"{"a":1"#)
        }
    }

    @Test func nonStringKeyIsRejected() {
        #expect(throws: JSONParseError(line: 1, column: 2, reason: "expected a string key, found '1'")) {
            try JSONParser.parse("{1: 2}")
        }
    }

    @Test func unterminatedStringIsReportedAtTheEndOfInput() {
        #expect(throws: JSONParseError(line: 2, column: 5, reason: "unterminated string")) {
            try JSONParser.parse("{\"a\":\n\"abc")
        }
    }

    @Test func badEscapeNamesTheCharacterAfterTheBackslash() throws {
        let error = try #require(throws: JSONParseError.self) {
            try JSONParser.parse(#""a\x""#)
        }
        // The reason doubles the quotes: describe() already quotes the character.
        #expect(error == JSONParseError(line: 1, column: 4, reason: #"invalid escape '\x'"#))
        #expect(error.description == #"line 1, column 4: invalid escape '\x'"#)
    }

    @Test func nonHexDigitInUnicodeEscapeIsReported() {
        #expect(throws: JSONParseError(line: 1, column: 5, reason: #"expected a hex digit in \u escape, found 'G'"#)) {
            try JSONParser.parse(#""\u0G00""#)
        }
    }

    @Test func truncatedUnicodeEscapeIsReported() {
        #expect(throws: JSONParseError(line: 1, column: 6, reason: #"unterminated \u escape"#)) {
            try JSONParser.parse(#""\u00"#)
        }
    }

    @Test func tabInAStringIsAControlCharacter() {
        #expect(throws: JSONParseError(line: 1, column: 3, reason: "control character U+0009 in a string; escape it")) {
            try JSONParser.parse("\"a\tb\"")
        }
    }

    @Test func newlineInAStringIsReportedOnTheStringsLine() {
        #expect(throws: JSONParseError(line: 1, column: 3, reason: "control character U+000A in a string; escape it")) {
            try JSONParser.parse("\"a\nb\"")
        }
    }

    @Test func invalidUTF8InAStringIsReported() {
        #expect(throws: JSONParseError(line: 1, column: 3, reason: "invalid UTF-8 in a string")) {
            try JSONParser.parse([0x22, 0xFF, 0x22])
        }
    }

    @Test func leadingZeroIsRejectedAtTheSecondDigit() {
        #expect(throws: JSONParseError(line: 1, column: 2, reason: "leading zero in a number")) {
            try JSONParser.parse("01")
        }
        #expect(throws: JSONParseError(line: 1, column: 4, reason: "leading zero in a number")) {
            try JSONParser.parse("[-00]")
        }
    }

    @Test func incompleteNumbersAreRejected() {
        #expect(throws: JSONParseError(line: 1, column: 2, reason: "expected a digit after '-'")) {
            try JSONParser.parse("-")
        }
        #expect(throws: JSONParseError(line: 1, column: 3, reason: "expected a digit after '.'")) {
            try JSONParser.parse("1.")
        }
        #expect(throws: JSONParseError(line: 1, column: 4, reason: "expected a digit in the exponent")) {
            try JSONParser.parse("1e+")
        }
    }

    @Test func plusSignAndBareDotAreNotValues() {
        #expect(throws: JSONParseError(line: 1, column: 1, reason: "unexpected '+', expected a value")) {
            try JSONParser.parse("+1")
        }
        #expect(throws: JSONParseError(line: 1, column: 1, reason: "unexpected '.', expected a value")) {
            try JSONParser.parse(".5")
        }
    }

    @Test func misspelledLiteralNamesTheExpectedWord() {
        #expect(throws: JSONParseError(line: 1, column: 4, reason: "invalid literal, expected 'true'")) {
            try JSONParser.parse("tru")
        }
        #expect(throws: JSONParseError(line: 1, column: 2, reason: "invalid literal, expected 'null'")) {
            try JSONParser.parse("nol")
        }
    }

    @Test func loneHighSurrogateIsRejected() {
        #expect(throws: JSONParseError(line: 1, column: 8, reason: #"lone high surrogate \uD800"#)) {
            try JSONParser.parse(#""\uD800""#)
        }
    }

    @Test func loneLowSurrogateIsRejected() {
        #expect(throws: JSONParseError(line: 1, column: 8, reason: "lone low surrogate")) {
            try JSONParser.parse(#""\uDC00""#)
        }
    }

    @Test func highSurrogateFollowedByANonSurrogateIsRejected() {
        #expect(throws: JSONParseError(line: 1, column: 14, reason: "invalid low surrogate")) {
            try JSONParser.parse(#""\uD800\u0041""#)
        }
    }

    @Test func duplicateKeyNamesTheKeyAndItsLine() throws {
        let error = try #require(throws: JSONParseError.self) {
            try JSONParser.parse("{\"a\": 1,\n \"a\": 2}")
        }
        #expect(error == JSONParseError(line: 2, column: 2, reason: #"duplicate key "a""#))
        #expect(error.description == #"line 2, column 2: duplicate key "a""#)
    }

    @Test func nestingOneDeeperThanTheMaximumThrows() {
        let depth = JSONParser.maximumDepth + 1
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(throws: JSONParseError(line: 1, column: 257, reason: "nesting deeper than 256 levels")) {
            try JSONParser.parse(text)
        }
    }

    @Test func veryDeepNestingThrowsInsteadOfOverflowingTheStack() {
        let text = String(repeating: #"{"a":["#, count: 50_000)
        #expect(throws: JSONParseError(line: 1, column: 769, reason: "nesting deeper than 256 levels")) {
            try JSONParser.parse(text)
        }
    }

    @Test func trailingGarbageIsRejected() {
        #expect(throws: JSONParseError(line: 1, column: 4, reason: "unexpected text after the JSON value")) {
            try JSONParser.parse("{} x")
        }
        #expect(throws: JSONParseError(line: 2, column: 1, reason: "unexpected text after the JSON value")) {
            try JSONParser.parse("1\n2")
        }
    }

    @Test func emptyInputExpectsAValue() {
        #expect(throws: JSONParseError(line: 1, column: 1, reason: "the text is empty, expected a JSON value")) {
            try JSONParser.parse("")
        }
        #expect(throws: JSONParseError(line: 2, column: 2, reason: "the text is empty, expected a JSON value")) {
            try JSONParser.parse("  \n ")
        }
    }

    @Test func unexpectedNonASCIIByteIsShownInHex() {
        #expect(throws: JSONParseError(line: 1, column: 1, reason: "unexpected byte 0xC3, expected a value")) {
            try JSONParser.parse("é")
        }
    }

    @Test func columnsAfterAByteOrderMarkCountFromTheFirstCharacter() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("[1,]".utf8)
        #expect(throws: JSONParseError(line: 1, column: 4, reason: "unexpected ']', expected a value")) {
            try JSONParser.parse(bytes)
        }
    }

    @Test func descriptionIsLineColumnAndReason() {
        let error = JSONParseError(line: 3, column: 14, reason: "expected ',' or '}' after an object member")
        #expect(error.description == "line 3, column 14: expected ',' or '}' after an object member")
    }
}
