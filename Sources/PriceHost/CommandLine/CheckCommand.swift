import ProviderABI

/// `pricehost check`: validates the config and every plugin. Problems (a
/// plugin that failed, a default or asset naming a provider nothing
/// provides, a plugin that logged a warning or error while loading) make the
/// exit status 3; settings kept for a provider not loaded are a warning only,
/// since its plugin may be dropped in later.
struct CheckCommand {
    let invocation: Invocation
    let config: Config
    let report: PluginLoadReport
    let output: @Sendable (String) -> Void
    let diagnostics: Diagnostics

    func run() -> ExitStatus {
        var problems = report.failures.map(\.description)
        let pluginMessages = diagnostics.count(of: .warning) + diagnostics.count(of: .error)
        if pluginMessages > 0 {
            problems.append("plugins logged \(pluginMessages) warning(s) or error(s) while loading (above)")
        }
        let loaded = Set(report.plugins.map(\.name))
        if let provider = config.defaults.provider, !loaded.contains(provider) {
            problems.append("\(config.path): defaults.provider: no loaded plugin provides '\(provider)'")
        }
        for asset in config.assets.keys.sorted() {
            if let provider = config.assets[asset]?.provider, !loaded.contains(provider) {
                problems.append("\(config.path): assets.\(asset).provider: no loaded plugin provides '\(provider)'")
            }
        }
        let warnings = config.providerSettings.keys.sorted().filter { !loaded.contains($0) }.map {
            "\(config.path): providers.\($0): settings for a provider no loaded plugin provides (kept for when one is added)"
        }
        for problem in problems { diagnostics.error(problem) }
        for warning in warnings { diagnostics.warning(warning) }

        switch invocation.format {
        case .json:
            output(JSONValue.object(JSONObject([
                ("config", .string(config.path)),
                ("ok", .bool(problems.isEmpty)),
                ("plugins", ProvidersCommand.json(report)),
                ("problems", .array(problems.map(JSONValue.string))),
                ("warnings", .array(warnings.map(JSONValue.string))),
            ])).serialized)
        case .text, .csv:
            output("config \(config.path): parsed")
            for plugin in report.plugins {
                output("plugin \(plugin.name) \(plugin.version) (\(plugin.path)): ok, fetchers: \(plugin.fetcherNames.joined(separator: ", "))")
            }
            output(problems.isEmpty
                ? "check passed: \(report.plugins.count) plugin(s), \(warnings.count) warning(s)"
                : "check failed: \(problems.count) problem(s), \(warnings.count) warning(s)")
        }
        return problems.isEmpty ? .success : .configOrPlugin
    }
}
