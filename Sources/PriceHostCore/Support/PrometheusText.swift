/// Prometheus's text exposition format: what the service's metrics and the fleet's share.
package enum PrometheusText {
    /// A label value as the text format needs it: `\`, `"` and newlines escaped.
    package static func escaped(_ value: String) -> String {
        guard value.contains(where: { $0 == "\\" || $0 == "\"" || $0 == "\n" }) else { return value }
        var output = ""
        for character in value {
            switch character {
            case "\\": output += "\\\\"
            case "\"": output += "\\\""
            case "\n": output += "\\n"
            default: output.append(character)
            }
        }
        return output
    }
}
