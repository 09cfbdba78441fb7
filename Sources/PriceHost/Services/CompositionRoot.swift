import Injection
import ProviderABI

/// The wiring diagram of pricehost, in one place:
///
/// ```
/// arguments, environment
///   -> ConfigLocator -> Config                      (plugins.json)
///   -> PluginSearchPath + PluginLoader -> PluginLoadReport   (dlopen, descriptors)
///   -> Container:
///        Config, PluginLoadReport, Diagnostics       singletons
///        PriceFetcher "provider"                     each plugin's general fetcher
///        PriceFetcher "provider/ASSET"               each plugin's dedicated fetchers
///   -> QuoteService (routes an asset to a fetcher name, fetches concurrently)
///   -> a command (fetch, providers, check) -> QuoteFormatter -> stdout
/// ```
public enum CompositionRoot {
    /// Finds and parses the config.
    /// - Throws: ``ConfigError``.
    public static func loadConfig(invocation: Invocation, environment: [String: String]) throws(ConfigError) -> Config {
        try ConfigLocator(explicitPath: invocation.configPath, environment: environment,
                          currentDirectory: FilePath.currentDirectory).load()
    }

    /// Loads every plugin the config names; failures are collected, not thrown.
    public static func loadPlugins(config: Config, environment: [String: String], diagnostics: Diagnostics) -> PluginLoadReport {
        let searchPath = PluginSearchPath(config: config, environment: environment,
                                          executableDirectory: ExecutableLocation.directory)
        return PluginLoader(searchPath: searchPath, diagnostics: diagnostics).loadAll(config: config)
    }

    /// The container every command resolves from.
    public static func makeContainer(config: Config, report: PluginLoadReport, diagnostics: Diagnostics) -> Container {
        let container = Container()
        container.register(Config.self, scope: .singleton) { _ in config }
        container.register(PluginLoadReport.self, scope: .singleton) { _ in report }
        container.register(Diagnostics.self, scope: .singleton) { _ in diagnostics }
        container.install(PluginFetchersModule(plugins: report.plugins))
        return container
    }
}

/// Registers each loaded plugin's fetchers under `provider` and `provider/ASSET`.
struct PluginFetchersModule: Module {
    let plugins: [LoadedPlugin]

    func register(into container: Container) {
        for plugin in plugins {
            for entry in plugin.fetchers {
                let fetcher = entry.fetcher
                container.register(PriceFetcher.self, name: entry.registrationName, scope: .singleton) { _ in fetcher }
            }
        }
    }
}
