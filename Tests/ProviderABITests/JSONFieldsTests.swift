import PriceHostFuzzing
import PriceHostTestTraits
import ProviderABI
import Testing

@Suite(.offThePool, .timeLimit(.minutes(5)))
struct JSONFieldsTests {
    static let ticker = #"{"type":"ticker","sequence":109876543210,"product_id":"BTC-USD","price":"64000.10","best_bid":"64000.09","#
        + #""side":"buy","time":"2026-11-20T12:00:00.283114Z","trade_id":1234567890,"last_size":"0.00512000","open":null}"#

    @Test func aTickersMembersReadAsTheParsersTreeHasThem() throws {
        let fields = try #require(JSONFields(Self.ticker))
        #expect(fields.string("type") == "ticker")
        #expect(fields.string("price") == "64000.10")
        #expect(fields.number("sequence") == "109876543210")
        #expect(fields.string("sequence") == nil && fields.number("price") == nil)
        #expect(fields.string("missing") == nil && !fields.contains("missing"))
        #expect(fields.contains("open") && fields.value("open") == .null && fields.string("open") == nil)
        #expect(fields.keys == ["type", "sequence", "product_id", "price", "best_bid", "side", "time", "trade_id", "last_size", "open"])
    }

    @Test func escapesAreResolvedInKeysAndStrings() throws {
        let fields = try #require(JSONFields(#"{"ty\u0070e":"tick\"er\n","nested":{"a":[1,{"b":"\ud83d\ude00"}]}}"#))
        #expect(fields.string("type") == "tick\"er\n")
        #expect(fields.value("nested") == .object(JSONObject([("a", .array([.number("1"), .object(JSONObject([("b", .string("😀"))]))]))])))
    }

    @Test(arguments: [
        "", "[]", #""ticker""#, "12", "null", #"{"a":1,}"#, #"{"a":1}x"#, #"{"a":1,"a":2}"#, #"{"a":1,"\u0061":2}"#,
        #"{"a":{"b":1,"b":2}}"#, #"{"a":"\ud800"}"#, #"{"a":"\udc00"}"#, #"{"a":01}"#, #"{"a":"tab\#tin"}"#, #"{"a":tru}"#,
        String(repeating: "[", count: 300) + String(repeating: "]", count: 300),
    ])
    func whatIsNotOneJSONObjectHasNoFields(text: String) {
        #expect(JSONFields(text) == nil)
    }

    @Test func manyKeysAreCheckedForDuplicatesToo() {
        let members = (0..<100).map { #""k\#($0)":\#($0)"# }
        #expect(JSONFields("{" + members.joined(separator: ",") + "}")?.number("k99") == "99")
        #expect(JSONFields("{" + (members + [#""k\u0037":0"#]).joined(separator: ",") + "}") == nil)
    }

    /// Whatever the text, ``JSONFields`` accepts it exactly when ``JSONParser`` parses it to an
    /// object, and each member reads as the parser's tree has it.
    @Test func mutatedDocumentsReadAsTheParserReadsThem() throws {
        let corpus = JSONParserFuzzTests.corpus + [Array(Self.ticker.utf8), Array(#"{"a":{"b":{"c":[1,2,{"d":"e"}]}},"\u00e9":"\u00e9"}"#.utf8)]
        let mutator = Mutator(corpus: corpus, tokens: Mutator.jsonTokens + [Array(#""\u0061""#.utf8), Array(#""a""#.utf8)])
        let tally = try FuzzRun().loop("JSONFieldsTests/mutated", iterations: 15_000) { random, iteration in
            iteration < corpus.count ? corpus[iteration] : mutator.mutate(using: &random)
        } describe: {
            FuzzText.describe($0)
        } check: { bytes in
            Self.check(String(decoding: bytes, as: UTF8.self))
        }
        #expect(tally.values > 500 && tally.errors > 1_000, "\(tally)")
    }

    static func check(_ text: String) -> FuzzOutcome {
        let fields = JSONFields(text)
        guard case .object(let object)? = try? JSONParser.parse(text) else {
            return fields == nil ? .error : .problem("JSONFields read what the parser refuses, or a value that is not an object")
        }
        guard let fields else { return .problem("JSONFields refused an object the parser reads") }
        guard fields.keys == object.keys else { return .problem("keys \(fields.keys), the parser's \(object.keys)") }
        for (key, value) in object.members {
            let string: String? = if case .string(let text) = value { text } else { nil }
            let number: String? = if case .number(let text) = value { text } else { nil }
            guard fields.value(key) == value, fields.string(key) == string, fields.number(key) == number else {
                return .problem("member \(JSONValue.quoted(key)) reads otherwise than the parser's \(value)")
            }
        }
        return .value
    }
}
