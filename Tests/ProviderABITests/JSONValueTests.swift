import ProviderABI
import Testing

struct JSONValueTests {
    // MARK: serialized

    @Test func serializedIsCompactAndKeepsNumbersAndKeyOrder() throws {
        let value = try JSONParser.parse(#"{ "b" : [ 1e3 , -0.50, true, null, "x" ] , "a" : { } }"#)
        #expect(value.serialized == #"{"b":[1e3,-0.50,true,null,"x"],"a":{}}"#)
    }

    @Test func serializedScalars() {
        #expect(JSONValue.null.serialized == "null")
        #expect(JSONValue.bool(true).serialized == "true")
        #expect(JSONValue.bool(false).serialized == "false")
        #expect(JSONValue.number("15840.01").serialized == "15840.01")
        #expect(JSONValue.string("a\"b").serialized == #""a\"b""#)
        #expect(JSONValue.array([]).serialized == "[]")
    }

    @Test func serializedEscapesObjectKeys() {
        let value = JSONValue.object(JSONObject([("we\"ird\nkey", .null)]))
        #expect(value.serialized == #"{"we\"ird\nkey":null}"#)
    }

    // MARK: quoted

    @Test func quotedEscapesQuotesAndBackslashes() {
        #expect(JSONValue.quoted(#"say "hi" \ bye"#) == #""say \"hi\" \\ bye""#)
    }

    @Test func quotedEscapesNewlineReturnAndTab() {
        #expect(JSONValue.quoted("a\nb\rc\td") == #""a\nb\rc\td""#)
    }

    @Test func quotedEscapesOtherControlCharactersAsFourHexDigits() {
        #expect(JSONValue.quoted("\u{00}\u{01}\u{08}\u{0C}\u{1F}\u{7F}") == #""\u0000\u0001\u0008\u000C\u001F\u007F""#)
    }

    @Test func quotedLeavesNonASCIIAlone() {
        #expect(JSONValue.quoted("BTÇ € 😀 /") == "\"BTÇ € 😀 /\"")
    }

    @Test func quotedTextParsesBackToTheSameString() throws {
        let text = "q\" b\\ n\n r\r t\t nul\u{00} us\u{1F} del\u{7F} é 😀 \u{2028}"
        #expect(try JSONParser.parse(JSONValue.quoted(text)) == .string(text))
    }

    // MARK: kindDescription

    @Test func kindDescriptionNamesEachKindWithItsArticle() {
        #expect(JSONValue.null.kindDescription == "null")
        #expect(JSONValue.bool(false).kindDescription == "a boolean")
        #expect(JSONValue.number("1").kindDescription == "a number")
        #expect(JSONValue.string("").kindDescription == "a string")
        #expect(JSONValue.array([]).kindDescription == "an array")
        #expect(JSONValue.object(JSONObject()).kindDescription == "an object")
    }

    // MARK: JSONObject

    @Test func objectKeepsInsertionOrder() {
        var object = JSONObject()
        object["z"] = .number("1")
        object["a"] = .number("2")
        #expect(object.keys == ["z", "a"])
        #expect(object.members.map(\.key) == ["z", "a"])
        #expect(object.count == 2)
    }

    @Test func laterDuplicateInInitializerReplacesTheValueInItsFirstPlace() {
        let object = JSONObject([("a", .number("1")), ("b", .null), ("a", .number("3"))])
        #expect(object.keys == ["a", "b"])
        #expect(object["a"] == .number("3"))
    }

    @Test func settingNilRemovesTheKey() {
        var object = JSONObject([("a", .number("1")), ("b", .number("2"))])
        object["a"] = nil
        #expect(object.keys == ["b"])
        #expect(object["a"] == nil)
        #expect(object.count == 1)
        object["missing"] = nil
        #expect(object.keys == ["b"])
    }

    @Test func objectsWithTheSameMembersInAnotherOrderDiffer() {
        let first = JSONObject([("a", .null), ("b", .null)])
        let second = JSONObject([("b", .null), ("a", .null)])
        #expect(first != second)
    }

    @Test(arguments: [3, 16, 17, 40])
    func anObjectOfAnySizeFindsReplacesAndRemovesByKeyInOrder(size: Int) {
        let members = (0..<size).map { ("key\($0)", JSONValue.number(String($0))) }
        var object = JSONObject(members)
        #expect(object.count == size && object.keys == members.map(\.0))
        #expect((0..<size).allSatisfy { object["key\($0)"] == .number(String($0)) } && object["absent"] == nil)
        object["key1"] = .string("replaced")
        object["key0"] = nil
        object["added"] = .bool(true)
        #expect(object.keys == (1..<size).map { "key\($0)" } + ["added"])
        #expect(object["key1"] == .string("replaced") && object["key0"] == nil && object["added"] == .bool(true))
        #expect((2..<size).allSatisfy { object["key\($0)"] == .number(String($0)) })
        #expect(JSONObject(members) == JSONObject(members) && JSONObject(members).hashValue == JSONObject(members).hashValue)
        #expect(JSONObject(members) != JSONObject(members.reversed()) || size < 2)
    }
}
