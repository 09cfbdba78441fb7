/// The top-level members of one JSON object, found in one pass over its text that
/// builds no tree: for a feed message, read once and asked for a few members.
///
/// It accepts exactly the documents ``JSONParser`` accepts (RFC 8259, strict: no
/// duplicate keys at any depth, nesting at most ``JSONParser/maximumDepth``) whose value
/// is an object, and its members read as that parser's tree would: a string with its
/// escapes resolved, a number as written. A member's string is made only when asked
/// for, and one without escapes straight from its bytes; ``value(_:)`` parses one
/// member into a ``JSONValue`` for what is nested.
///
/// ```swift
/// guard let message = JSONFields(text), message.string("type") == "ticker",
///       let price = message.string("price") else { return [] }
/// ```
public struct JSONFields: Sendable {
    /// The text, kept whole: members are ranges of its UTF-8.
    private let text: String
    private let members: [Member]

    /// Where one member's key and value are in the text's UTF-8.
    struct Member: Sendable {
        /// The key's text between its quotes.
        var key: Range<Int>
        /// The key with its escapes resolved, when it has any.
        var decodedKey: [UInt8]?
        /// The decoded key's length and first and last bytes, for the scanner's check of duplicates.
        var fingerprint: UInt32
        /// The value's text, quotes included for a string.
        var value: Range<Int>
        var kind: Kind
    }

    enum Kind: Sendable {
        case string(escaped: Bool), number, other
    }

    /// Reads `text`; `nil` unless it is one JSON document (white space around it allowed) whose value is an object.
    public init?(_ text: String) {
        var text = text
        guard let members = text.withUTF8({ bytes in
            var scanner = JSONScanner(bytes: bytes)
            return scanner.scanDocument()
        }) else { return nil }
        self.text = text
        self.members = members
    }

    /// Whether the object has the member `key` (`null` included).
    public func contains(_ key: String) -> Bool {
        withMember(key) { member, _ in member != nil }
    }

    /// The member `key` as a string, escapes resolved; `nil` when it is absent or not a string.
    public func string(_ key: String) -> String? {
        withMember(key) { member, bytes in
            guard let member, case .string(let escaped) = member.kind else { return nil }
            guard escaped else {
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[(member.value.lowerBound + 1)..<(member.value.upperBound - 1)]), as: UTF8.self)
            }
            guard case .string(let text)? = try? JSONParser.parse(Array(bytes[member.value])) else { return nil }
            return text
        }
    }

    /// The member `key`'s text when it is a JSON number, exactly as written (`64000.10`, `1e3`); `nil` otherwise.
    public func number(_ key: String) -> String? {
        withMember(key) { member, bytes in
            guard let member, case .number = member.kind else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[member.value]), as: UTF8.self)
        }
    }

    /// The member `key` as a parsed value (`.null` for `null`); `nil` when it is absent.
    public func value(_ key: String) -> JSONValue? {
        withMember(key) { member, bytes in
            member.flatMap { try? JSONParser.parse(Array(bytes[$0.value])) }
        }
    }

    /// The members' keys, in document order.
    public var keys: [String] {
        var text = text
        return text.withUTF8 { bytes in
            members.map { String(decoding: $0.decodedKey ?? Array(bytes[$0.key]), as: UTF8.self) }
        }
    }

    /// Calls `body` with the member `key` (`nil` when absent) and the text's UTF-8.
    private func withMember<T>(_ key: String, _ body: (Member?, UnsafeBufferPointer<UInt8>) -> T) -> T {
        var key = key, text = text
        return key.withUTF8 { wanted in
            text.withUTF8 { bytes in
                let member = members.first { member in
                    if let decoded = member.decodedKey { return decoded.elementsEqual(wanted) }
                    return member.key.count == wanted.count && UnsafeBufferPointer(rebasing: bytes[member.key]).elementsEqual(wanted)
                }
                return body(member, bytes)
            }
        }
    }
}
