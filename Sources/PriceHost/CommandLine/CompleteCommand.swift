import PriceHostCore

/// `pricehost __complete providers [--config PATH]`: what the completion scripts ask at the prompt,
/// one name a line. Provider names are those the config in effect names (its `providers`,
/// `defaults.provider`, `assets.CODE.provider` and `.providers`), read without loading a plugin:
/// a TAB must be quick, and must not run the code of plugins that a `./plugins.json` in whatever
/// directory the user is in names. A config it cannot read prints nothing on stdout, its error on
/// stderr (which the scripts discard), and exits 3.
struct CompleteCommand: SynchronousCommand {
    var plugins = PluginOptions()
    /// `WHAT`: `providers`.
    var what: String?

    static let configuration = CommandConfiguration(
        name: "__complete",
        summary: "the completion scripts' question to the config in effect: its provider names",
        usage: [], isHidden: true)

    static let argument: Argument<CompleteCommand>? = Argument(valueName: "WHAT") { command, what in command.what = what }

    static let options: [Option<CompleteCommand>] = [.config(\.plugins)]

    func validate() throws(UsageError) {
        guard let what else { throw UsageError("__complete needs what to complete: providers") }
        guard what == "providers" else { throw UsageError("__complete completes providers, not '\(what)'") }
    }

    func run(in context: CommandContext) -> ExitStatus {
        guard let config = context.loadConfig(path: plugins.configPath) else { return .configOrPlugin }
        for name in Self.providerNames(in: config) { context.output(name) }
        return .success
    }

    /// Every provider `config` names, sorted.
    static func providerNames(in config: Config) -> [String] {
        var names = Set(config.providerSettings.keys).union(config.providerPolicies.keys)
        if let provider = config.defaults.provider { names.insert(provider) }
        for asset in config.assets.values { names.formUnion(asset.providerOrder ?? []) }
        return names.sorted()
    }
}
