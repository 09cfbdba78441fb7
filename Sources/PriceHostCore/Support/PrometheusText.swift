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

/// Builds an exposition: families with `# HELP` and `# TYPE`, then their samples.
package struct PrometheusWriter {
    /// The text so far.
    package private(set) var text = ""

    package init() {}

    /// Starts a family.
    package mutating func family(_ name: String, _ type: String, _ help: String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }

    /// One sample, its label values escaped.
    package mutating func sample(_ name: String, _ labels: [(String, String)], _ value: String) {
        let rendered = labels.isEmpty ? "" : "{" + labels.map { "\($0.0)=\"\(PrometheusText.escaped($0.1))\"" }.joined(separator: ",") + "}"
        text += "\(name)\(rendered) \(value)\n"
    }

    /// A histogram's samples for one label set: cumulative buckets, `+Inf`, sum and count.
    package mutating func histogram(_ name: String, _ labels: [(String, String)], bounds: [Double], counts: [Int], sum: Double, count: Int) {
        var cumulative = 0
        for (index, bound) in bounds.enumerated() {
            cumulative += counts[index]
            sample(name + "_bucket", labels + [("le", "\(bound)")], String(cumulative))
        }
        sample(name + "_bucket", labels + [("le", "+Inf")], String(count))
        sample(name + "_sum", labels, "\(sum)")
        sample(name + "_count", labels, String(count))
    }
}
