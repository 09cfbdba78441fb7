/// A JSON value together with where it sits in its document, for strict
/// reading with errors that name the key path (`providers.file.path`).
public struct JSONCursor: Sendable {
    /// The value under the cursor.
    public let value: JSONValue
    /// The key path to `value`, e.g. `providers.file` or `[2].amount`; empty at the root.
    public let path: String

    /// A cursor at the root of a document.
    public init(_ value: JSONValue, path: String = "") {
        self.value = value
        self.path = path
    }

    /// The path as shown in messages: `(top level)` at the root.
    public var displayPath: String { path.isEmpty ? "(top level)" : path }

    /// An error at this cursor's path.
    public func error(_ reason: String) -> JSONShapeError {
        JSONShapeError(path: displayPath, reason: reason)
    }

    /// The members of an object, each with its own cursor.
    /// - Throws: ``JSONShapeError`` when the value is not an object.
    public func members() throws(JSONShapeError) -> [(key: String, cursor: JSONCursor)] {
        guard case .object(let object) = value else { throw mismatch("an object") }
        return object.members.map { ($0.key, child(key: $0.key, $0.value)) }
    }

    /// Checks that an object has only `allowed` keys.
    /// - Throws: ``JSONShapeError`` naming the first unknown key and the known ones.
    public func rejectUnknownKeys(allowed: [String]) throws(JSONShapeError) {
        guard case .object(let object) = value else { throw mismatch("an object") }
        for key in object.keys where !allowed.contains(key) {
            let suggestion = Self.closest(to: key, in: allowed).map { " (did you mean \($0)?)" } ?? ""
            throw child(key: key, .null).error("unknown key\(suggestion); expected one of: \(allowed.joined(separator: ", "))")
        }
    }

    /// The allowed key a typo most likely meant: one that differs only in case, or
    /// by one edit (two for keys of five characters or more); `nil` when none is close.
    static func closest(to key: String, in allowed: [String]) -> String? {
        if let sameLetters = allowed.first(where: { $0.lowercased() == key.lowercased() }) { return sameLetters }
        let limit = key.count >= 5 ? 2 : 1
        let scored = allowed.map { (key: $0, distance: editDistance(key.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= limit else { return nil }
        return best.key
    }

    /// Edit distance between two short strings: insertions, deletions, substitutions
    /// and swaps of two neighbours (`paht` is one edit from `path`).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            beforePrevious = previous
            previous = current
        }
        return previous[b.count]
    }

    /// The member `key` of an object, or `nil` when absent (or explicitly `null`).
    /// - Throws: ``JSONShapeError`` when the value is not an object.
    public func optionalMember(_ key: String) throws(JSONShapeError) -> JSONCursor? {
        guard case .object(let object) = value else { throw mismatch("an object") }
        guard let member = object[key], member != .null else { return nil }
        return child(key: key, member)
    }

    /// The member `key` of an object.
    /// - Throws: ``JSONShapeError`` when it is missing or the value is not an object.
    public func member(_ key: String) throws(JSONShapeError) -> JSONCursor {
        guard let member = try optionalMember(key) else {
            throw child(key: key, .null).error("missing")
        }
        return member
    }

    /// The elements of an array, each with its own cursor.
    /// - Throws: ``JSONShapeError`` when the value is not an array.
    public func elements() throws(JSONShapeError) -> [JSONCursor] {
        guard case .array(let elements) = value else { throw mismatch("an array") }
        return elements.enumerated().map { JSONCursor($0.element, path: "\(path)[\($0.offset)]") }
    }

    /// The value as a string.
    /// - Throws: ``JSONShapeError`` when it is not a string.
    public func string() throws(JSONShapeError) -> String {
        guard case .string(let text) = value else { throw mismatch("a string") }
        return text
    }

    /// The value as a boolean.
    /// - Throws: ``JSONShapeError`` when it is not a boolean.
    public func bool() throws(JSONShapeError) -> Bool {
        guard case .bool(let flag) = value else { throw mismatch("a boolean") }
        return flag
    }

    /// The value as a whole number within `range`.
    /// - Throws: ``JSONShapeError`` when it is not a number, not whole, or out of range.
    public func integer(in range: ClosedRange<Int>) throws(JSONShapeError) -> Int {
        guard case .number(let text) = value else { throw mismatch("a number") }
        guard let number = Int(text), range.contains(number) else {
            throw error("expected a whole number from \(range.lowerBound) to \(range.upperBound), found \(text)")
        }
        return number
    }

    func child(key: String, _ value: JSONValue) -> JSONCursor {
        JSONCursor(value, path: path.isEmpty ? key : "\(path).\(key)")
    }

    func mismatch(_ expected: String) -> JSONShapeError {
        error("expected \(expected), found \(value.kindDescription)")
    }
}

/// JSON that parsed but has the wrong shape: a missing key, an unknown key, a wrong type.
public struct JSONShapeError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The key path of the offending value, e.g. `providers.file.path`.
    public var path: String
    /// What is wrong with it.
    public var reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `providers.file.path: expected a string, found a number`.
    public var description: String { "\(path): \(reason)" }
}
