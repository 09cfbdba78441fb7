import PriceHostCore
import ProviderABI

/// What `check` and `check --plugin` print: a text report, or one JSON object.
enum CheckReportFormatter {
    /// The whole-config check: each healthy plugin and its fetches, then the verdict.
    static func lines(configPath: String, healthy: [CheckCommand.ProbeResult], problems: [String], warnings: [String],
                      format: OutputFormat) -> [String] {
        var lines: [String] = []
        switch format {
        case .json:
            lines.append(JSONValue.object(JSONObject([
                ("config", .string(configPath)),
                ("ok", .bool(problems.isEmpty)),
                ("plugins", .array(healthy.map { result in
                    .object(JSONObject([
                        ("name", .string(result.name ?? "")), ("version", .string(result.version ?? "")),
                        ("path", .string(result.path)), ("abi", .string(result.abi ?? "")),
                        ("sha256", result.sha256.map(JSONValue.string) ?? .null),
                        ("fetchers", .array(result.fetchers.map(JSONValue.string))),
                        ("fetches", .array(result.fetches.map(JSONValue.string))),
                    ]))
                })),
                ("problems", .array(problems.map(JSONValue.string))),
                ("warnings", .array(warnings.map(JSONValue.string))),
            ])).serialized)
        case .text, .csv:
            lines.append("config \(configPath): parsed")
            for result in healthy {
                lines.append("plugin \(result.name ?? "") \(result.version ?? "") (\(result.path)): ok, fetchers: \(result.fetchers.joined(separator: ", "))")
                for fetch in result.fetches { lines.append("  \(fetch)") }
            }
            lines.append(problems.isEmpty
                ? "check passed: \(healthy.count) plugin(s), \(warnings.count) warning(s)"
                : "check failed: \(problems.count) problem(s), \(warnings.count) warning(s)")
        }
        return lines
    }

    /// The conformance check of one plugin: its fetchers and fetches, then the verdict.
    static func conformanceLines(path: String, result: CheckCommand.ProbeResult, format: OutputFormat) -> [String] {
        var lines: [String] = []
        switch format {
        case .json:
            lines.append(JSONValue.object(JSONObject([
                ("plugin", .string(path)), ("ok", .bool(result.problems.isEmpty)),
                ("name", result.name.map(JSONValue.string) ?? .null), ("version", result.version.map(JSONValue.string) ?? .null),
                ("fetchers", .array(result.fetchers.map(JSONValue.string))), ("fetches", .array(result.fetches.map(JSONValue.string))),
                ("findings", .array(result.problems.map(JSONValue.string))),
            ])).serialized)
        case .text, .csv:
            if let name = result.name {
                lines.append("plugin \(name) \(result.version ?? "") (\(path)), fetchers: \(result.fetchers.joined(separator: ", "))")
                for fetch in result.fetches { lines.append("  \(fetch)") }
            }
            lines.append(result.problems.isEmpty ? "conformance passed" : "conformance failed: \(result.problems.count) finding(s)")
        }
        return lines
    }
}
