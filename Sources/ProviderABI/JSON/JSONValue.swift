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
public struct JSONObject: Sendable, Hashable {
    /// The keys in document order.
    public private(set) var keys: [String] = []
    private var values: [String: JSONValue] = [:]

    /// Creates an empty object.
    public init() {}

    /// Creates an object from members in order; a later duplicate key replaces the earlier value.
    public init(_ members: [(String, JSONValue)]) {
        for (key, value) in members { self[key] = value }
    }

    /// The value for `key`, or `nil`. Setting appends a new key at the end.
    public subscript(key: String) -> JSONValue? {
        get { values[key] }
        set {
            if let newValue {
                if values.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if values.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    /// The members in document order.
    public var members: [(key: String, value: JSONValue)] {
        keys.compactMap { key in values[key].map { (key, $0) } }
    }

    /// The number of members.
    public var count: Int { keys.count }
}
