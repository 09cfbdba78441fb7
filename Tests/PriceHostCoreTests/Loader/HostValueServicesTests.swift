import ConcurrencyHelpers
import CProviderABI
@testable import PriceHostCore
import ProviderABI
import Testing

/// `json_get` and `check_amount` (ABI 1.2), called through the services
/// table's C function pointers as a C plugin calls them.
struct HostValueServicesTests {
    static let kraken = #"{"error":[],"result":{"XXBTZUSD":{"c":["64000.10000","0.001"],"t":[12,34],"o":64000.10,"x":null,"y":true}}}"#

    /// What `json_get` answers for `path` in `json`, with a buffer of `size` bytes.
    static func get(_ json: String, _ path: String, size: Int = 256) throws -> (result: ph_json_result, text: String) {
        let (context, _) = PluginHostContextTests.context()
        let table = context.makeTable(configDirectory: "/").pointee
        let jsonGet = try #require(table.json_get)
        var buffer = [CChar](repeating: 0x7F, count: max(size, 1))
        let bytes = Array(json.utf8)
        let result = bytes.withUnsafeBufferPointer { body in
            body.withMemoryRebound(to: CChar.self) { text in
                buffer.withUnsafeMutableBufferPointer { out in
                    jsonGet(table.host_context, text.baseAddress, text.count, path, size == 0 ? nil : out.baseAddress, size)
                }
            }
        }
        let text = size == 0 ? "" : Self.text(buffer)
        return (ph_json_result(rawValue: numericCast(result)), text)
    }

    /// The NUL-terminated text in `buffer`.
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test(arguments: [
        ("result.XXBTZUSD.c[0]", PH_JSON_STRING, "64000.10000"),
        ("result[0].c[0]", PH_JSON_STRING, "64000.10000"),
        ("result{0}", PH_JSON_STRING, "XXBTZUSD"),
        (#"["result"]["XXBTZUSD"].t[1]"#, PH_JSON_NUMBER, "34"),
        ("result.XXBTZUSD.o", PH_JSON_NUMBER, "64000.10"),
        ("result.XXBTZUSD.x", PH_JSON_NULL, "null"),
        ("result.XXBTZUSD.y", PH_JSON_BOOL, "true"),
        ("error", PH_JSON_ARRAY, "0"),
        ("result", PH_JSON_OBJECT, "1"),
        ("", PH_JSON_OBJECT, "2"),
    ])
    func aValueIsItsKindAndItsExactText(path: String, kind: ph_json_result, text: String) throws {
        let answer = try Self.get(Self.kraken, path)
        #expect(answer.result == kind)
        #expect(answer.text == text)
    }

    @Test(arguments: [
        ("result.XXBTZUSD.a", PH_JSON_NOT_FOUND, "result.XXBTZUSD.a: missing"),
        ("result.XXBTZUSD.c[5]", PH_JSON_NOT_FOUND, "result.XXBTZUSD.c[5]: missing (the array has 2 elements)"),
        ("result.XXBTZUSD.c[0].z", PH_JSON_NOT_FOUND, "result.XXBTZUSD.c[0]: expected an object, found a string"),
        ("result{1}", PH_JSON_NOT_FOUND, "result: has 1 members, no member 1"),
        ("result..c", PH_JSON_BAD_PATH, #"path "result..c", at offset 7: empty name; quote odd names as ["name"]"#),
        ("result{0}.c", PH_JSON_BAD_PATH, #"path "result{0}.c", at offset 9: {N} must be the last step"#),
        ("error[x]", PH_JSON_BAD_PATH, #"path "error[x]", at offset 6: expected a position: 1 to 9 digits"#),
    ])
    func aPathThatLeadsNowhereSaysWhichStep(path: String, kind: ph_json_result, message: String) throws {
        let answer = try Self.get(Self.kraken, path)
        #expect(answer.result == kind)
        #expect(answer.text == message)
    }

    @Test func textThatIsNotJSONNamesTheLineAndColumn() throws {
        #expect(try Self.get(#"{"error":["#, "error") == (PH_JSON_BAD_TEXT, "line 1, column 11: unexpected end of input, expected a value"))
        #expect(try Self.get("", "error") == (PH_JSON_BAD_TEXT, "line 1, column 1: the text is empty, expected a JSON value"))
    }

    @Test func aValueLongerThanTheBufferIsRefusedNotCut() throws {
        let answer = try Self.get(Self.kraken, "result.XXBTZUSD.c[0]", size: 8)
        #expect(answer.result == PH_JSON_TOO_SMALL)
        #expect(answer.text == "result.")  // the message, cut to the 8 bytes
        let roomy = try Self.get(Self.kraken, "result.XXBTZUSD.c[0]", size: 12)
        #expect(roomy == (PH_JSON_STRING, "64000.10000"))
        let message = try Self.get(#"{"a":"0123456789012345678901234567890123456789012345678901234567890123456789"}"#, "a", size: 60)
        #expect(message == (PH_JSON_TOO_SMALL, "a: the value is 70 bytes; the buffer holds 59"))
    }

    @Test func aLengthOverTheLimitIsRefusedBeforeAByteIsRead() throws {
        let (context, _) = PluginHostContextTests.context()
        let table = context.makeTable(configDirectory: "/").pointee
        let jsonGet = try #require(table.json_get)
        var buffer = [CChar](repeating: 0, count: 128)
        let one: [CChar] = [0x7B]  // "{", and a length that claims far more
        let result = one.withUnsafeBufferPointer { text in
            buffer.withUnsafeMutableBufferPointer { jsonGet(table.host_context, text.baseAddress, Int.max, "a", $0.baseAddress, $0.count) }
        }
        #expect(ph_json_result(rawValue: numericCast(result)) == PH_JSON_BAD_TEXT)
        #expect(Self.text(buffer) == "json_get called with \(Int.max) bytes; it reads at most 16777216")
    }

    @Test func withNoBufferOnlyTheKindIsReturned() throws {
        #expect(try Self.get(Self.kraken, "result.XXBTZUSD.c[0]", size: 0).result == PH_JSON_STRING)
    }

    @Test func aStringHoldingNULIsRefused() throws {
        #expect(try Self.get(#"{"a":"x\u0000y"}"#, "a") == (PH_JSON_NUL_IN_STRING, "a: the string contains U+0000, which a C string cannot carry"))
    }

    @Test func truncationNeverSplitsACharacter() {
        var buffer = [CChar](repeating: 0x7F, count: 4)
        #expect(!HostValueServices.write("aé€", to: &buffer, size: 4))
        #expect(Self.text(buffer) == "aé")
    }

    @Test func checkAmountAppliesTheRuleTheHostAppliesToQuotes() throws {
        let (context, _) = PluginHostContextTests.context()
        let table = context.makeTable(configDirectory: "/").pointee
        let check = try #require(table.check_amount)
        var message = [CChar](repeating: 0, count: 200)
        for good in ["64000.10", "-1", "0.000000000000000001", "12345678901234567890123456789012345678"] {
            #expect(check(table.host_context, good, &message, message.count) == 0, "\(good)")
            #expect(DecimalAmount.parse(good) != nil)
        }
        for bad in ["1e5", "+1", " 1", "1.", ".5", "1,000", "", "123456789012345678901234567890123456789"] {
            #expect(check(table.host_context, bad, &message, message.count) != 0, "\(bad)")
            #expect(Self.text(message) == "\(JSONValue.quoted(bad)) is not a decimal amount (-?digits(.digits)?, at most 38 significant digits)")
            #expect(DecimalAmount.parse(bad) == nil)
        }
        #expect(check(table.host_context, "1e5", nil, 0) != 0)
    }
}
