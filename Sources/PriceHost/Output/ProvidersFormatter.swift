import PriceHostCore
import ProviderABI

/// What `providers` prints: a table of the loaded plugins and a line per failure, or one JSON object.
enum ProvidersFormatter {
    static func lines(for report: PluginLoadReport, format: OutputFormat) -> [String] {
        var lines: [String] = []
        switch format {
        case .json:
            lines.append(json(report).serialized)
        case .text, .csv:
            var rows = report.plugins.map { plugin in
                [plugin.name, plugin.version, plugin.path, "fetchers: " + plugin.fetcherNames.joined(separator: ", ")
                    + (plugin.stream.map { "; feed: \($0.url)" } ?? "")]
            }
            if rows.isEmpty { rows.append(["(no plugin loaded)"]) }
            for line in TextTable.lines(rows) { lines.append(line) }
            for failure in report.failures { lines.append("failed: \(failure.description)") }
        }
        return lines
    }

    /// `{"plugins":[{"name","version","path","abi","sha256","fetchers","stream"}],"failures":[{"path","error"}]}`;
    /// `stream` is the feed's URL as the plugin names it (ABI 1.3), or null.
    static func json(_ report: PluginLoadReport) -> JSONValue {
        .object(JSONObject([
            ("plugins", .array(report.plugins.map { plugin in
                .object(JSONObject([
                    ("name", .string(plugin.name)),
                    ("version", .string(plugin.version)),
                    ("path", .string(plugin.path)),
                    ("abi", .string(plugin.abiVersion)),
                    ("sha256", plugin.sha256.map(JSONValue.string) ?? .null),
                    ("fetchers", .array(plugin.fetcherNames.map(JSONValue.string))),
                    ("stream", plugin.stream.map { .string($0.url) } ?? .null),
                ]))
            })),
            ("failures", .array(report.failures.map { failure in
                .object(JSONObject([("path", .string(failure.path)), ("error", .string(failure.reason))]))
            })),
        ]))
    }
}
