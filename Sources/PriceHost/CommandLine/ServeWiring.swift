import Injection
import PriceHostCore
import PriceHostHTTP
import PriceHostService

/// How `serve` is built (``ServeAssembly``): what ``ServeApplication`` asks of the layers it
/// does not import. The container, the plugins and the catalog as every command gets them
/// (``CommandContext/makeHost(config:plugins:computeHashes:adjust:budget:decorate:)``),
/// fetchers that coalesce, report to the metrics and share through the fleet, and the feeds.
struct ServeWiring: ServeAssembly {
    let plugins: PluginOptions
    let context: CommandContext

    func loadConfig() -> Result<Config, ServeRefusal> {
        do {
            return .success(try CompositionRoot.loadConfig(configPath: plugins.configPath, environment: context.environment))
        } catch {
            return .failure(ServeRefusal(lines: [error.description]))
        }
    }

    func makeGeneration(_ config: Config, metrics: ServeMetrics, fleet: SharedFleet?, feeds: (any QuoteFeeds)?)
        -> Result<ServeGeneration, ServeRefusal> {
        let diagnostics = context.diagnostics
        var budget: (@Sendable (String, TokenBucket) -> any RequestBudget)?
        if let fleet { budget = { provider, local in fleet.budget(provider: provider, local: local) } }
        let host = context.makeHost(config: config, plugins: plugins, budget: budget, decorate: { provider, fetcher, policy in
            // Another instance's fetch is waited for as long as a fetch may take, no longer.
            CoalescingPriceFetcher(provider: provider, base: fetcher, cacheSeconds: policy.cacheSeconds, observer: metrics,
                                   shared: fleet?.quotes, sharedWaitLimit: min(policy.worstCaseHTTPTime, .seconds(60)))
        })
        let container = host.container, catalog = host.catalog
        catalog.loadAll()
        // Two plugins with one provider name: refused, as by every command that loads them all.
        if let refusal = catalog.duplicateRefusal { return .failure(ServeRefusal(lines: refusal)) }
        let service = QuoteService(container: container, catalog: catalog, warn: { [diagnostics] in diagnostics.warning($0) })
        var identities: [String: LibraryCache.FileKey] = [:]
        for plugin in catalog.report.plugins { identities[plugin.path] = ProviderCatalog.identity(of: plugin.path) }
        // The feeds are made once: a reload keeps them (and their connections); stream settings change on restart.
        let feeds = feeds ?? makeFeeds(catalog: catalog, container: container, config: config, fleet: fleet, metrics: metrics)
        return .success(ServeGeneration(config: config, container: container, catalog: catalog, service: service, identities: identities,
                                        fleet: fleet, feeds: feeds))
    }

    /// The feeds of the providers whose config says `"stream": true`; with a fleet, shared through
    /// Redis so that one instance holds each venue's connection (``FleetFeeds``).
    private func makeFeeds(catalog: ProviderCatalog, container: Container, config: Config, fleet: SharedFleet?,
                           metrics: ServeMetrics) -> any QuoteFeeds {
        let local = CompositionRoot.makeFeeds(catalog: catalog, container: container, config: config, diagnostics: context.diagnostics,
                                              libcurl: context.environment["PRICEHOST_LIBCURL"] ?? LibCurl.defaultName, enabledOnly: true)
        guard let fleet, !local.providers.isEmpty else { return local }
        // A store the fleet shares is written by each feed's holder (one writer a quote); an instance's own file, by what it serves.
        let keepHeld: (@Sendable (StreamUpdate) -> Void)? = metrics.store.isShared ? { @Sendable update in metrics.keepHeld(update) } : nil
        return FleetFeeds(local: local, fleet: fleet, diagnostics: context.diagnostics, keepHeld: keepHeld) { provider in
            config.policy(for: provider).stream.staleAfter
        }
    }
}
