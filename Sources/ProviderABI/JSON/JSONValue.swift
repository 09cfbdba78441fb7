/// A parsed JSON document that keeps what money needs kept.
///
/// Numbers stay as their source text, so a price written as a JSON number is
/// parsed to `Decimal` exactly; objects keep their key order.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// The number's text exactly as written, e.g. `15840.01` or `1e3`: parse
    /// it with ``DecimalAmount/parse(_:)`` (exact) rather than as a `Double`.
    case number(String)
    /// A string, escapes resolved.
    case string(String)
    /// An array's elements, in order.
    case array([JSONValue])
    /// An object's members, in document order, keys unique.
    case object(JSONObject)

    /// What the value is, for messages: "a string", "an object", ….
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON object's members in document order, with unique keys.
///
/// Two objects are equal when they have the same members in the same order.
public struct JSONObject: Sendable, Hashable {
    private var entries: [(key: String, value: JSONValue)] = []
    /// Where each key is in `entries`; made once the object has more than ``indexedFrom`` members.
    /// Below that a look-up scans the keys, which is faster than hashing them (a feed's message
    /// has a dozen or so members, and a streaming host parses tens of thousands a second).
    private var index: [String: Int]?
    private static let indexedFrom = 16

    /// Creates an empty object.
    public init() {}

    /// Creates an object from members in order; a later duplicate key replaces the earlier value.
    public init(_ members: [(String, JSONValue)]) {
        entries.reserveCapacity(members.count)
        for (key, value) in members { self[key] = value }
    }

    /// The keys in document order.
    public var keys: [String] { entries.map(\.key) }

    /// The value for `key`, or `nil`. Setting appends a new key at the end.
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { entries[$0].value } }
        set {
            if let position = position(of: key) {
                if let newValue {
                    entries[position].value = newValue
                } else {
                    entries.remove(at: position)
                    index = nil
                    if entries.count > Self.indexedFrom { makeIndex() }
                }
            } else if let newValue {
                entries.append((key, newValue))
                if index != nil {
                    index?[key] = entries.count - 1
                } else if entries.count > Self.indexedFrom {
                    makeIndex()
                }
            }
        }
    }

    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        return entries.firstIndex { $0.key == key }
    }

    private mutating func makeIndex() {
        var made: [String: Int] = [:]
        made.reserveCapacity(entries.count)
        for (position, entry) in entries.enumerated() { made[entry.key] = position }
        index = made
    }

    /// The members in document order.
    public var members: [(key: String, value: JSONValue)] { entries }

    /// The number of members.
    public var count: Int { entries.count }

    /// Whether both have the same members in the same order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    /// Hashes the members in order, as ``==`` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(entries.count)
        for entry in entries {
            hasher.combine(entry.key)
            hasher.combine(entry.value)
        }
    }
}
