import ProviderABI

/// `pricehost providers`: the loaded plugins, their versions, paths and
/// fetchers, and the plugins that failed with why.
struct ProvidersCommand {
    let invocation: Invocation
    let report: PluginLoadReport
    let output: @Sendable (String) -> Void

    func run() -> ExitStatus {
        switch invocation.format {
        case .json:
            output(Self.json(report).serialized)
        case .text, .csv:
            var rows = report.plugins.map { plugin in
                [plugin.name, plugin.version, plugin.path, "fetchers: " + plugin.fetcherNames.joined(separator: ", ")]
            }
            if rows.isEmpty { rows.append(["(no plugin loaded)"]) }
            for line in TextTable.lines(rows) { output(line) }
            for failure in report.failures { output("failed: \(failure.description)") }
        }
        return .success
    }

    /// `{"plugins":[{"name","version","path","abi","sha256","fetchers"}],"failures":[{"path","error"}]}`.
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
                ]))
            })),
            ("failures", .array(report.failures.map { failure in
                .object(JSONObject([("path", .string(failure.path)), ("error", .string(failure.reason))]))
            })),
        ]))
    }
}
