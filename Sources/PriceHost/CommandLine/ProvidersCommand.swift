import PriceHostCore
import ProviderABI

/// `pricehost providers`: the loaded plugins, their versions, paths and
/// fetchers, and the plugins that failed with why.
struct ProvidersCommand: LoadsPlugins {
    var plugins = PluginOptions()
    /// `--format`.
    var format = Invocation.Format.text

    static let configuration = CommandConfiguration(
        name: "providers",
        summary: "list the loaded plugins, their versions, paths and fetchers, and the plugins that failed, with why",
        usage: [UsageLine("[--format]")])

    static let formats: [Invocation.Format] = [.text, .json]

    static let options: [Option<ProvidersCommand>] = [
        .config(\.plugins), .format(\.format, supported: formats), .allowInsecurePlugins(\.plugins),
    ]

    func validate() throws(UsageError) {
        try format.require(Self.formats, by: Self.configuration.name)
    }

    func run(in context: CommandContext) async -> ExitStatus {
        guard let config = context.loadConfig(for: self) else { return .configOrPlugin }
        // Hashes are printed by `--format json`; the text listing has no use for them.
        let host = context.makeHost(config: config, plugins: plugins, computeHashes: format == .json)
        host.catalog.load(until: nil)
        if context.refusesDuplicates(in: host.catalog) { return .configOrPlugin }
        for line in ProvidersFormatter.lines(for: host.catalog.report, format: format) { context.output(line) }
        return .success
    }
}
