import ProviderABI

/// Replaces `${VAR}` in every string of a settings value with the variable's
/// value, so secrets stay out of config files. `$${` stands for a literal `${`.
package enum EnvironmentSubstitution {
    package static func apply(to cursor: JSONCursor, environment: [String: String]) throws(JSONShapeError) -> JSONValue {
        switch cursor.value {
        case .string(let text):
            return .string(try substitute(text, at: cursor, environment: environment))
        case .array:
            return .array(try cursor.elements().map { (element) throws(JSONShapeError) in try apply(to: element, environment: environment) })
        case .object:
            var object = JSONObject()
            for (key, member) in try cursor.members() {
                object[key] = try apply(to: member, environment: environment)
            }
            return .object(object)
        default:
            return cursor.value
        }
    }

    package static func substitute(_ text: String, at cursor: JSONCursor, environment: [String: String]) throws(JSONShapeError) -> String {
        guard text.contains("${") else { return text }
        var output = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            output += rest[..<dollar]
            let afterDollar = rest[rest.index(after: dollar)...]
            if afterDollar.hasPrefix("${") {
                output += "${"
                rest = afterDollar.dropFirst(2)
            } else if afterDollar.hasPrefix("{") {
                guard let close = afterDollar.firstIndex(of: "}") else {
                    throw cursor.error("unterminated ${ in \(JSONValue.quoted(text)); write $${ for a literal ${")
                }
                let name = String(afterDollar[afterDollar.index(after: afterDollar.startIndex)..<close])
                guard isVariableName(name) else {
                    throw cursor.error("${\(name)} is not a valid environment variable name")
                }
                guard let value = environment[name] else {
                    throw cursor.error("environment variable \(name) is not set")
                }
                output += value
                rest = afterDollar[afterDollar.index(after: close)...]
            } else {
                output += "$"
                rest = afterDollar
            }
        }
        return output + rest
    }

    private static func isVariableName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return name.utf8.allSatisfy { byte in
            byte == UInt8(ascii: "_") || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }
}
