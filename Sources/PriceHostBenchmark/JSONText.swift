/// JSON text for the configs the benchmark writes: only strings need care (paths).
enum JSONText {
    static func string(_ text: String) -> String {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }

    /// `["a", "b"]`.
    static func array(_ strings: [String]) -> String {
        "[" + strings.map(string).joined(separator: ", ") + "]"
    }
}
