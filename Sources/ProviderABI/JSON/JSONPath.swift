/// A path to one value in a JSON document, such as `result.XXBTZUSD.c[0]`:
/// the syntax C plugins pass to the host's `json_get` service (ABI 1.2).
///
/// Steps, in order:
/// - `name` (first step) or `.name`: the member `name` of an object; any
///   characters but `.`, `[`, `]`, `{`, `}` and `"`.
/// - `["name"]`: the same, for any name (`\"` and `\\` escape).
/// - `[N]`: element `N` of an array (from 0); on an object, its `N`-th member
///   in document order.
/// - `{N}`: last step only: the key of an object's `N`-th member, as a string.
///
/// The empty path is the whole document.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path.
    public enum Step: Sendable, Hashable {
        /// An object's member by name.
        case key(String)
        /// An array's element, or an object's member, by position from 0.
        case index(Int)
        /// The key of an object's member at a position from 0 (last step only).
        case keyAt(Int)
    }

    /// The steps, in order; empty for the whole document.
    public let steps: [Step]

    /// Creates a path from its steps.
    public init(_ steps: [Step]) {
        self.steps = steps
    }

    /// Parses `text` in the syntax above.
    /// - Throws: ``JSONPathError`` naming the offset and what is wrong.
    public init(parsing text: String) throws(JSONPathError) {
        var parser = PathParser(bytes: Array(text.utf8))
        steps = try parser.parse()
    }

    /// The path as written, in the syntax above: `result.XXBTZUSD.c[0]`.
    public var description: String {
        var text = ""
        for step in steps {
            switch step {
            case .key(let name) where PathParser.isPlainName(name):
                text += text.isEmpty ? name : "." + name
            case .key(let name):
                text += "[" + JSONValue.quoted(name) + "]"
            case .index(let position):
                text += "[\(position)]"
            case .keyAt(let position):
                text += "{\(position)}"
            }
        }
        return text
    }
}

/// A path that does not follow ``JSONPath``'s syntax.
public struct JSONPathError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The path as given.
    public var path: String
    /// The byte offset where the problem is, from 0.
    public var offset: Int
    /// What is wrong there.
    public var reason: String

    /// Creates an error.
    public init(path: String, offset: Int, reason: String) {
        self.path = path
        self.offset = offset
        self.reason = reason
    }

    /// `path "a..b", at offset 2: empty name`.
    public var description: String { "path \(JSONValue.quoted(path)), at offset \(offset): \(reason)" }
}

extension JSONCursor {
    /// The value at `path` below this cursor; its ``path`` names every step
    /// taken, positions resolved to keys (`result.XXBTZUSD.c[0]`).
    /// - Throws: ``JSONShapeError`` naming the first step that leads nowhere:
    ///   a missing key, an index past the end, or a step into a value that is
    ///   not an object or array.
    public func value(at path: JSONPath) throws(JSONShapeError) -> JSONCursor {
        var cursor = self
        for (offset, step) in path.steps.enumerated() {
            switch step {
            case .key(let name):
                cursor = try cursor.memberKeepingNull(name)
            case .index(let position):
                cursor = try cursor.element(at: position)
            case .keyAt(let position):
                guard offset == path.steps.count - 1 else {
                    throw cursor.error("{\(position)} must be the last step")
                }
                guard case .object(let object) = cursor.value else { throw cursor.mismatch("an object") }
                guard position < object.count else { throw cursor.error("has \(object.count) members, no member \(position)") }
                cursor = JSONCursor(.string(object.members[position].key), path: cursor.path + "{\(position)}")
            }
        }
        return cursor
    }

    /// Element `position` of an array, or the member at that position of an object.
    private func element(at position: Int) throws(JSONShapeError) -> JSONCursor {
        switch value {
        case .array(let elements):
            guard position < elements.count else {
                throw JSONCursor(.null, path: "\(path)[\(position)]").error("missing (the array has \(elements.count) elements)")
            }
            return JSONCursor(elements[position], path: "\(path)[\(position)]")
        case .object(let object):
            guard position < object.count else {
                throw JSONCursor(.null, path: "\(path)[\(position)]").error("missing (the object has \(object.count) members)")
            }
            return try memberKeepingNull(object.members[position].key)
        default:
            throw mismatch("an array or object")
        }
    }

    /// The member `name` of an object, `null` included (``member(_:)`` calls `null` missing).
    private func memberKeepingNull(_ name: String) throws(JSONShapeError) -> JSONCursor {
        guard case .object(let object) = value else { throw mismatch("an object") }
        guard let member = object[name] else { throw child(key: name, .null).error("missing") }
        return child(key: name, member)
    }
}

/// The parser behind ``JSONPath/init(parsing:)``.
private struct PathParser {
    let bytes: [UInt8]
    var index = 0

    static let specials: Set<UInt8> = [UInt8(ascii: "."), UInt8(ascii: "["), UInt8(ascii: "]"),
                                       UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "\"")]

    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && !name.utf8.contains { specials.contains($0) }
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func parse() throws(JSONPathError) -> [JSONPath.Step] {
        var steps: [JSONPath.Step] = []
        while index < bytes.count {
            if case .keyAt = steps.last { throw error("{N} must be the last step") }
            switch bytes[index] {
            case UInt8(ascii: "."):
                guard !steps.isEmpty else { throw error("a path starts with a name, not '.'") }
                index += 1
                steps.append(.key(try name()))
            case UInt8(ascii: "["):
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                    steps.append(.key(try quotedName()))
                } else {
                    steps.append(.index(try number()))
                }
                try expect("]")
            case UInt8(ascii: "{"):
                index += 1
                steps.append(.keyAt(try number()))
                try expect("}")
            default:
                guard steps.isEmpty else { throw error("expected '.', '[' or '{' between steps") }
                steps.append(.key(try name()))
            }
        }
        return steps
    }

    private mutating func name() throws(JSONPathError) -> String {
        let start = index
        while index < bytes.count, !Self.specials.contains(bytes[index]) { index += 1 }
        guard index > start else { throw error("empty name; quote odd names as [\"name\"]") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func quotedName() throws(JSONPathError) -> String {
        index += 1  // opening quote
        var name: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: name, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "\\") else {
                    throw error("only \\\" and \\\\ escape in a quoted name")
                }
                name.append(bytes[index])
                index += 1
            default:
                name.append(byte)
            }
        }
        throw error("unterminated quoted name")
    }

    private mutating func number() throws(JSONPathError) -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        guard index > start, index - start <= 9, let value = Int(String(decoding: bytes[start..<index], as: UTF8.self)) else {
            index = start
            throw error("expected a position: 1 to 9 digits")
        }
        return value
    }

    private mutating func expect(_ close: Unicode.Scalar) throws(JSONPathError) {
        guard index < bytes.count, bytes[index] == UInt8(ascii: close) else { throw error("expected '\(close)'") }
        index += 1
    }

    private func error(_ reason: String) -> JSONPathError {
        JSONPathError(path: String(decoding: bytes, as: UTF8.self), offset: index, reason: reason)
    }
}
