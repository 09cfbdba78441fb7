extension JSONValue {
    /// Compact JSON text; object members in their order, numbers as written.
    public var serialized: String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let text): output += text
        case .string(let text): output += JSONValue.quoted(text)
        case .array(let elements):
            output += "["
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output += "," }
                element.write(to: &output)
            }
            output += "]"
        case .object(let object):
            output += "{"
            for (offset, member) in object.members.enumerated() {
                if offset > 0 { output += "," }
                output += JSONValue.quoted(member.key)
                output += ":"
                member.value.write(to: &output)
            }
            output += "}"
        }
    }

    /// `text` as a JSON string literal, with quotes, backslashes and control characters escaped.
    public static func quoted(_ text: String) -> String {
        // Most text needs no escape: copied whole rather than scalar by scalar.
        if needsNoEscape(text) {
            return "\"" + text + "\""
        }
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case let control where control.value < 0x20 || control.value == 0x7F:
                let hex = String(control.value, radix: 16, uppercase: true)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }

    /// Appends `text`'s UTF-8 as ``quoted(_:)`` writes it (a streaming host writes five a quote, into one buffer).
    package static func appendQuoted(_ text: String, to output: inout [UInt8]) {
        guard needsNoEscape(text) else { return output.appendUTF8(quoted(text)) }
        output.append(UInt8(ascii: "\""))
        output.appendUTF8(text)
        output.append(UInt8(ascii: "\""))
    }

    /// Whether `text` has no byte ``quoted(_:)`` escapes (read through its contiguous UTF-8).
    private static func needsNoEscape(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { $0.allSatisfy(isPlain) }
    }

    private static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte != 0x7F
    }
}

extension [UInt8] {
    /// Appends `text`'s UTF-8 in one copy: `append(contentsOf: text.utf8)` looks up generic metadata on every call,
    /// which a streaming host's twenty a quote made a measurable share of its work.
    package mutating func appendUTF8(_ text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }
}
