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

    /// One sample per key of `counts`, sorted by key, each labelled `label="key"`.
    package mutating func samples(_ name: String, label: String, _ counts: [String: Int]) {
        for (key, count) in counts.sorted(by: { $0.key < $1.key }) { sample(name, [(label, key)], String(count)) }
    }

    /// A histogram's samples for one label set: cumulative buckets, `+Inf`, sum and count.
    package mutating func histogram(_ name: String, _ labels: [(String, String)], _ histogram: PrometheusHistogram) {
        var cumulative = 0
        for (index, bound) in histogram.bounds.enumerated() {
            cumulative += histogram.counts[index]
            sample(name + "_bucket", labels + [("le", "\(bound)")], String(cumulative))
        }
        sample(name + "_bucket", labels + [("le", "+Inf")], String(histogram.count))
        sample(name + "_sum", labels, "\(histogram.sum)")
        sample(name + "_count", labels, String(histogram.count))
    }
}

/// What a Prometheus histogram keeps for one label set: how many observations fell in each
/// bucket, their sum and their count. Every histogram of `/metrics` is one: fetch and Redis
/// round-trip times, a feed's quote ages, a fleet feed's relay lag.
package struct PrometheusHistogram: Sendable, Equatable {
    /// The buckets' upper bounds, ascending.
    package let bounds: [Double]
    /// Observations per bucket: each is counted in the first bucket whose bound it does not
    /// exceed (the exposition makes them cumulative), none in a bucket when above every bound.
    package private(set) var counts: [Int]
    /// The sum of the observations.
    package private(set) var sum = 0.0
    /// How many observations there were.
    package private(set) var count = 0

    package init(bounds: [Double]) {
        self.bounds = bounds
        counts = [Int](repeating: 0, count: bounds.count)
    }

    /// Counts one observation; a caller that wants no negative values clamps them first.
    package mutating func record(_ value: Double) {
        if let index = bounds.firstIndex(where: { value <= $0 }) { counts[index] += 1 }
        sum += value
        count += 1
    }

    /// Counts a duration, in seconds.
    package mutating func record(_ duration: Duration) {
        record(Durations.secondsValue(duration))
    }
}
