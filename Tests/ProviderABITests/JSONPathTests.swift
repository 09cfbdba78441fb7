import ProviderABI
import Testing

/// The path syntax of `json_get` (ABI 1.2), parsed and resolved in Swift.
struct JSONPathTests {
    @Test(arguments: [
        ("", [JSONPath.Step]()),
        ("result.XXBTZUSD.c[0]", [.key("result"), .key("XXBTZUSD"), .key("c"), .index(0)]),
        ("result[0].c[1]", [.key("result"), .index(0), .key("c"), .index(1)]),
        ("result{0}", [.key("result"), .keyAt(0)]),
        (#"["a.b"]["say \"hi\""]"#, [.key("a.b"), .key(#"say "hi""#)]),
        ("[2]", [.index(2)]),
    ])
    func pathsParseIntoTheirSteps(text: String, steps: [JSONPath.Step]) throws {
        let path = try JSONPath(parsing: text)
        #expect(path.steps == steps)
        // What a path prints parses back to the same steps.
        #expect(try JSONPath(parsing: path.description).steps == steps)
    }

    @Test(arguments: [
        (".a", 0, "a path starts with a name, not '.'"),
        ("a..b", 2, #"empty name; quote odd names as ["name"]"#),
        ("a[", 2, "expected a position: 1 to 9 digits"),
        ("a[1", 3, "expected ']'"),
        ("a[1234567890]", 2, "expected a position: 1 to 9 digits"),
        ("a{0}.b", 4, "{N} must be the last step"),
        (#"a["b"#, 4, "unterminated quoted name"),
        (#"a["\n"]"#, 4, #"only \" and \\ escape in a quoted name"#),
        ("a]", 1, "expected '.', '[' or '{' between steps"),
    ])
    func aMalformedPathSaysWhereAndWhy(text: String, offset: Int, reason: String) {
        #expect(throws: JSONPathError(path: text, offset: offset, reason: reason)) { try JSONPath(parsing: text) }
    }

    @Test func resolvingNamesEveryStepTakenWithPositionsAsKeys() throws {
        let document = try JSONParser.parse(#"{"result": {"XXBTZUSD": {"c": ["64000.1", "0.5"]}}, "n": null}"#)
        let cursor = try JSONCursor(document).value(at: JSONPath(parsing: "result[0].c[0]"))
        #expect(cursor.value == .string("64000.1"))
        #expect(cursor.path == "result.XXBTZUSD.c[0]")
        #expect(try JSONCursor(document).value(at: JSONPath(parsing: "n")).value == .null)
        #expect(throws: JSONShapeError(path: "result.XXBTZUSD.c[2]", reason: "missing (the array has 2 elements)")) {
            try JSONCursor(document).value(at: JSONPath(parsing: "result.XXBTZUSD.c[2]"))
        }
    }
}
