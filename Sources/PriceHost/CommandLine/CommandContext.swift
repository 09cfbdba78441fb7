import Injection
import PriceHostCore
import PriceHostHTTP
import ProviderABI

/// What a command runs with: the environment, where data goes, where diagnostics go.
struct CommandContext: Sendable {
    let environment: [String: String]
    /// One line of data on stdout.
    let output: @Sendable (String) -> Void
    let diagnostics: Diagnostics
    /// Where a command's ``ServiceGroup`` learns of signals: the process's, or a test's.
    var signals: any SignalSource = ProcessSignals()
    /// What a command reads the time from: `history`'s now, when `watch --record` got a quote.
    var clock: any PriceClock = SystemClock()

    /// The same, with other diagnostics.
    func with(diagnostics: Diagnostics) -> CommandContext {
        CommandContext(environment: environment, output: output, diagnostics: diagnostics, signals: signals, clock: clock)
    }
}

/// A command that loads plugins: it takes `--config` and `--allow-insecure-plugins`.
protocol LoadsPlugins: AsyncCommand {
    var plugins: PluginOptions { get }
}

extension LoadsPlugins {
    var pluginOptions: PluginOptions? { plugins }
}

/// What a command that loads plugins in this process works with (``CommandContext/makeHost(config:plugins:computeHashes:adjust:)``).
struct PluginHost {
    let config: Config
    let container: Container
    let loader: PluginLoader
    let catalog: ProviderCatalog
}

/// The wiring the commands share, in the order they need it.
extension CommandContext {
    /// The config of `command`: `--config`, else `PRICEHOST_CONFIG` and the usual places; nil after
    /// saying why it cannot be used. Then stdout is set aside for data, before any plugin runs.
    /// - Parameter pluginPath: `check --plugin` (and its probes): without `--config` the plugin gets
    ///   `{}`, whatever ./plugins.json or PRICEHOST_CONFIG say, as PLUGINS.md promises.
    func loadConfig(for command: some LoadsPlugins, pluginPath: String? = nil) -> Config? {
        let config: Config
        if pluginPath != nil, command.plugins.configPath == nil {
            config = Config(path: FilePath.absolute("plugins.json", relativeTo: FilePath.currentDirectory), directory: FilePath.currentDirectory)
        } else {
            guard let loaded = loadConfig(path: command.plugins.configPath) else { return nil }
            config = loaded
        }
        // Before any plugin runs: its stray prints must not reach the data channel.
        _ = LineOutput.standardOutput
        return config
    }

    /// The config at `path` (`--config`), else the one `PRICEHOST_CONFIG` and the usual places give; nil after
    /// saying why it cannot be used. For the commands that load no plugin (`history`, `__complete`) as for the others.
    func loadConfig(path: String?) -> Config? {
        do {
            return try CompositionRoot.loadConfig(configPath: path, environment: environment)
        } catch {
            diagnostics.error(error.description)
            return nil
        }
    }

    /// The container, loader and catalog for `config`; no plugin is loaded yet. Every command
    /// that loads plugins in this process is wired here, `serve` (and each of its reloads) included.
    /// - Parameters:
    ///   - computeHashes: each plugin file's SHA-256 is wanted (`providers --format json`, `check`).
    ///   - adjust: the command's own loader options.
    ///   - budget: wraps a provider's own request budget (`serve` with a fleet: the fleet's).
    ///   - decorate: wraps each fetcher as it is registered (`serve`: coalescing, metrics, the fleet).
    func makeHost(config: Config, plugins: PluginOptions, computeHashes: Bool = false,
                  adjust: (inout PluginLoader.Options) -> Void = { _ in },
                  budget: (@Sendable (_ provider: String, _ local: TokenBucket) -> any RequestBudget)? = nil,
                  decorate: FetcherDecorator? = nil) -> PluginHost {
        let container = CompositionRoot.makeContainer(config: config, diagnostics: diagnostics,
                                                      libcurl: environment["PRICEHOST_LIBCURL"] ?? LibCurl.defaultName, budget: budget)
        var options = PluginLoader.Options()
        options.fetchTimeout = { [config] provider in config.policy(for: provider).fetchDeadline }
        options.allowInsecure = plugins.allowInsecurePlugins
        options.computeHashes = computeHashes
        adjust(&options)
        let loader = CompositionRoot.makeLoader(config: config, environment: environment, diagnostics: diagnostics,
                                                container: container, options: options)
        let catalog = CompositionRoot.makeCatalog(loader: loader, config: config, container: container, decorate: decorate)
        return PluginHost(config: config, container: container, loader: loader, catalog: catalog)
    }

    /// Two plugins with one provider name: a command that loads them all refuses to start, naming both files
    /// (``ProviderCatalog/duplicateRefusal``).
    /// - Returns: true when it refused.
    func refusesDuplicates(in catalog: ProviderCatalog) -> Bool {
        guard let refusal = catalog.duplicateRefusal else { return false }
        for line in refusal { diagnostics.error(line) }
        return true
    }

    /// `status`, unless libcurl could not be loaded: that is a broken install, not a market's
    /// bad day (the error lines said what to install), so 3.
    func status(_ status: ExitStatus, fetchingWith container: Container) -> ExitStatus {
        if status != .success, CompositionRoot.networkingLoadFailure(in: container) != nil { return .configOrPlugin }
        return status
    }
}
