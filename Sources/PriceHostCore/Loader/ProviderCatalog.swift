import ConcurrencyHelpers
import Injection
import ProviderABI

/// The set of loaded providers, and its one rule: one plugin per provider name.
///
/// Every command that loads plugins goes through it: `fetch` loads until the
/// providers it routes to are present, `providers` and `watch` load them all,
/// `watch` rescans, and `__probe` loads one file. It registers each accepted
/// plugin's fetchers into the container (`provider` and `provider/ASSET`), and
/// answers which fetcher serves a provider for an asset. `check`, which loads
/// nothing in its own process, applies the same rule through ``Claims``.
package final class ProviderCatalog: Sendable {
    /// Which plugin file provides which name: the first to claim a name keeps it.
    package struct Claims: Sendable {
        private var files: [String: String] = [:]

        package init() {}

        /// The file that provides `provider`, if one has claimed it.
        package func file(providing provider: String) -> String? { files[provider] }

        /// Claims `provider` for `path`; when another file has it, why `path` is refused.
        package mutating func claim(_ provider: String, by path: String) -> String? {
            if let earlier = files[provider] {
                return "provider '\(provider)' is already provided by \(earlier); remove one of the two"
            }
            files[provider] = path
            return nil
        }
    }

    private struct State {
        var report = PluginLoadReport()
        var claims = Claims()
    }

    package let loader: PluginLoader
    package let config: Config
    private let container: Container
    private let decorate: FetcherDecorator?
    private let state = Lock(State())

    /// A catalog that loads with `loader` and registers into `container`; `decorate`,
    /// when given, wraps each fetcher instead of the default cache (`serve` coalesces).
    package init(loader: PluginLoader, config: Config, container: Container, decorate: FetcherDecorator? = nil) {
        self.loader = loader
        self.config = config
        self.container = container
        self.decorate = decorate
    }

    /// What has been loaded and what failed, so far.
    package var report: PluginLoadReport { state.withLock { $0.report } }

    /// The loaded plugin that provides `provider`.
    package func plugin(named provider: String) -> LoadedPlugin? { state.withLock { $0.report.plugin(named: provider) } }

    /// Loads every plugin the config names.
    package func loadAll() { load(until: nil) }

    /// The plugins refused because another file already provides their name:
    /// a config error for every command that loads all the plugins.
    package var duplicates: [PluginFailure] { report.failures.filter { $0.duplicateOf != nil } }

    /// The one rule for two plugins with one provider name, for every command that loads
    /// them all: it refuses to start, with a line naming both files for each; `nil` when
    /// there are none. (`fetch` stops loading once its providers are found, and takes the first.)
    package var duplicateRefusal: [String]? {
        let duplicates = duplicates
        return duplicates.isEmpty ? nil : duplicates.map(\.description)
    }

    /// Loads the plugins the config names, in order, until every provider in
    /// `needed` is loaded; all of them when `needed` is `nil` or cannot be
    /// satisfied. A fetch of one provider thus loads (and finds) no more
    /// plugins than it must, but then neither reports the plugins it did not
    /// reach, broken or duplicate; `providers` and `check` see them all.
    package func load(until needed: Set<String>?) {
        var session = PluginLoader.Session(loader: loader, config: config)
        var accepted: [LoadedPlugin] = []
        loader.forEachCandidate(config: config) { found in
            switch found {
            case .success(let candidate):
                if let result = session.load(candidate), let plugin = admit(result) { accepted.append(plugin) }
            case .failure(let failure):
                state.withLock { $0.report.failures.append(failure) }
            }
            guard let needed else { return true }
            return !needed.allSatisfy { plugin(named: $0) != nil }
        }
        register(accepted)
    }

    /// Loads `files` (the probe's one plugin) with the config's settings.
    package func load(_ files: [PluginLoader.Candidate]) {
        var session = PluginLoader.Session(loader: loader, config: config)
        register(files.compactMap { session.load($0).flatMap(admit) })
    }

    /// The container name of the fetcher that serves `provider` for `asset`:
    /// a fetcher dedicated to the asset (`provider/ASSET`) wins over the
    /// general one (`provider`); `nil` when the provider has neither.
    func fetcherName(provider: String, asset: String) -> String? {
        guard let plugin = plugin(named: provider) else { return nil }
        let names = Set(plugin.fetcherNames)
        let dedicated = "\(provider)/\(asset)"
        return names.contains(dedicated) ? dedicated : names.contains(provider) ? provider : nil
    }

    /// Records a load's outcome; the plugin when it is accepted, `nil` when it
    /// failed or its provider name is taken.
    package func admit(_ result: Result<LoadedPlugin, PluginFailure>) -> LoadedPlugin? {
        state.withLock { state in
            switch result {
            case .success(let plugin):
                let earlier = state.claims.file(providing: plugin.name)
                if let refusal = state.claims.claim(plugin.name, by: plugin.path) {
                    state.report.failures.append(PluginFailure(path: plugin.path, provider: plugin.name, reason: refusal,
                                                               duplicateOf: earlier))
                    return nil
                }
                state.report.plugins.append(plugin)
                return plugin
            case .failure(let failure):
                state.report.failures.append(failure)
                return nil
            }
        }
    }

    /// Registers the fetchers of newly accepted plugins, behind a cache where the provider's `cacheSeconds` asks for one.
    package func register(_ plugins: [LoadedPlugin]) {
        guard !plugins.isEmpty else { return }
        container.install(PluginFetchersModule(plugins: plugins, policies: config.providerPolicies, decorate: decorate))
    }
}
