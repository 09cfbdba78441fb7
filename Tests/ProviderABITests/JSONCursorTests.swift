@testable import ProviderABI
import Testing

struct JSONCursorTests {
    private func cursor(_ text: String) throws -> JSONCursor {
        JSONCursor(try JSONParser.parse(text))
    }

    // MARK: Paths

    @Test func rootPathIsEmptyAndDisplayedAsTopLevel() throws {
        let root = try cursor("{}")
        #expect(root.path == "")
        #expect(root.displayPath == "(top level)")
    }

    @Test func memberAndElementPathsCompose() throws {
        let root = try cursor(#"{"a": {"b": [0, 1, {"c": "x"}]}}"#)
        let elements = try root.member("a").member("b").elements()
        #expect(elements.map(\.path) == ["a.b[0]", "a.b[1]", "a.b[2]"])
        let leaf = try elements[2].member("c")
        #expect(leaf.path == "a.b[2].c")
        #expect(leaf.displayPath == "a.b[2].c")
        #expect(try leaf.string() == "x")
    }

    @Test func elementPathsAtTheRootStartWithABracket() throws {
        let elements = try cursor(#"[{"amount": "1"}, {"amount": "2"}]"#).elements()
        #expect(try elements[1].member("amount").path == "[1].amount")
    }

    @Test func membersComeInDocumentOrderWithTheirPaths() throws {
        let members = try cursor(#"{"outer": {"z": 1, "a": 2}}"#).member("outer").members()
        #expect(members.map { $0.key } == ["z", "a"])
        #expect(members.map { $0.cursor.path } == ["outer.z", "outer.a"])
        #expect(members.map { $0.cursor.value } == [.number("1"), .number("2")])
    }

    @Test func errorIsAtTheCursorsPath() throws {
        let root = try cursor(#"{"providers": {"file": {}}}"#)
        let file = try root.member("providers").member("file")
        #expect(file.error("path: must not be empty") == JSONShapeError(path: "providers.file", reason: "path: must not be empty"))
        #expect(root.error("bad").description == "(top level): bad")
    }

    // MARK: rejectUnknownKeys

    @Test func rejectUnknownKeysNamesTheFirstUnknownKeyAndTheKnownOnes() throws {
        let settings = try cursor(#"{"providers": {"file": {"path": "p.json", "paht": 1, "other": 2}}}"#)
            .member("providers").member("file")
        let error = try #require(throws: JSONShapeError.self) {
            try settings.rejectUnknownKeys(allowed: ["path", "refresh"])
        }
        #expect(error == JSONShapeError(path: "providers.file.paht", reason: "unknown key (did you mean path?); expected one of: path, refresh"))
        #expect(error.description == "providers.file.paht: unknown key (did you mean path?); expected one of: path, refresh")
    }

    @Test func aKeyFarFromEveryAllowedOneGetsNoSuggestion() throws {
        let settings = try cursor(#"{"timeout": 3}"#)
        let error = try #require(throws: JSONShapeError.self) { try settings.rejectUnknownKeys(allowed: ["provider", "currency"]) }
        #expect(error.reason == "unknown key; expected one of: provider, currency")
    }

    @Test(arguments: [("baseUrl", "baseURL"), ("pahtt", "path"), ("apiversion", "apiVersion"), ("paht", "path")])
    func aCloseKeyIsSuggested(typo: String, meant: String) {
        #expect(JSONCursor.closest(to: typo, in: ["baseURL", "apiVersion", "path"]) == meant)
    }

    @Test func rejectUnknownKeysAcceptsOnlyAllowedKeys() throws {
        try cursor(#"{"path": "x"}"#).rejectUnknownKeys(allowed: ["path", "other"])
        try cursor("{}").rejectUnknownKeys(allowed: [])
    }

    @Test func rejectUnknownKeysNeedsAnObject() throws {
        let root = try cursor("[]")
        #expect(throws: JSONShapeError(path: "(top level)", reason: "expected an object, found an array")) {
            try root.rejectUnknownKeys(allowed: ["path"])
        }
    }

    // MARK: Members

    @Test func missingMemberNamesItsPath() throws {
        let root = try cursor(#"{"a": {}}"#)
        let error = try #require(throws: JSONShapeError.self) {
            try root.member("a").member("path")
        }
        #expect(error == JSONShapeError(path: "a.path", reason: "missing"))
        #expect(error.description == "a.path: missing")
    }

    @Test func explicitNullCountsAsMissing() throws {
        let root = try cursor(#"{"path": null}"#)
        #expect(try root.optionalMember("path") == nil)
        #expect(throws: JSONShapeError(path: "path", reason: "missing")) {
            try root.member("path")
        }
    }

    @Test func optionalMemberIsNilWhenAbsent() throws {
        let root = try cursor(#"{"other": 1}"#)
        #expect(try root.optionalMember("path") == nil)
        #expect(try root.optionalMember("other")?.value == .number("1"))
    }

    @Test func memberOfANonObjectIsATypeMismatch() throws {
        let root = try cursor(#"{"a": "text"}"#)
        #expect(throws: JSONShapeError(path: "a", reason: "expected an object, found a string")) {
            try root.member("a").member("b")
        }
        #expect(throws: JSONShapeError(path: "a", reason: "expected an object, found a string")) {
            try root.member("a").optionalMember("b")
        }
        #expect(throws: JSONShapeError(path: "(top level)", reason: "expected an object, found null")) {
            try JSONCursor(.null).members()
        }
    }

    // MARK: Typed values

    @Test func typedAccessorsReturnTheirValues() throws {
        let root = try cursor(#"{"s": "text", "b": false, "n": 42}"#)
        #expect(try root.member("s").string() == "text")
        #expect(try root.member("b").bool() == false)
        #expect(try root.member("n").integer(in: 0...100) == 42)
    }

    @Test func typeMismatchesNameExpectedAndFoundKinds() throws {
        let root = try cursor(#"{"s": "text", "b": true, "n": 1, "a": [], "o": {}}"#)
        #expect(throws: JSONShapeError(path: "n", reason: "expected a string, found a number")) {
            try root.member("n").string()
        }
        #expect(throws: JSONShapeError(path: "s", reason: "expected a boolean, found a string")) {
            try root.member("s").bool()
        }
        #expect(throws: JSONShapeError(path: "b", reason: "expected a number, found a boolean")) {
            try root.member("b").integer(in: 0...1)
        }
        #expect(throws: JSONShapeError(path: "o", reason: "expected an array, found an object")) {
            try root.member("o").elements()
        }
        #expect(throws: JSONShapeError(path: "a", reason: "expected an object, found an array")) {
            try root.member("a").members()
        }
        #expect(throws: JSONShapeError(path: "(top level)", reason: "expected a string, found an object")) {
            try root.string()
        }
    }

    @Test func integerAcceptsTheRangeBounds() throws {
        #expect(try JSONCursor(.number("1")).integer(in: 1...10) == 1)
        #expect(try JSONCursor(.number("10")).integer(in: 1...10) == 10)
        #expect(try JSONCursor(.number("-5")).integer(in: -5...5) == -5)
    }

    @Test(arguments: ["0", "11", "-1", "2.5", "1e1", "10.0", "99999999999999999999"])
    func integerOutOfRangeOrNotWholeNamesTheRangeAndTheText(text: String) {
        let number = JSONCursor(.number(text), path: "timeout")
        #expect(throws: JSONShapeError(path: "timeout", reason: "expected a whole number from 1 to 10, found \(text)")) {
            try number.integer(in: 1...10)
        }
    }
}
