import ConcurrencyHelpers
import Injection
import PriceHostCore

/// One loaded config and what was built from it: what `serve` answers with until
/// SIGHUP builds the next one.
package struct ServeGeneration: Sendable {
    package let config: Config
    package let container: Container
    package let catalog: ProviderCatalog
    package let service: QuoteService
    /// Each loaded plugin file as the kernel tells files apart, when it was loaded:
    /// a reload tells a file replaced on disk from the same file.
    package let identities: [String: LibraryCache.FileKey]
    /// What this instance shares with the fleet through Redis; `nil` without `shared.redis`.
    package var fleet: SharedFleet?
    /// The feeds of providers whose config says `"stream": true`; made at start, kept across reloads.
    package var feeds: (any QuoteFeeds)?

    package init(config: Config, container: Container, catalog: ProviderCatalog, service: QuoteService,
                 identities: [String: LibraryCache.FileKey], fleet: SharedFleet? = nil, feeds: (any QuoteFeeds)? = nil) {
        self.feeds = feeds
        self.config = config
        self.container = container
        self.catalog = catalog
        self.service = service
        self.identities = identities
        self.fleet = fleet
    }

    /// Why `/readyz` says not ready: plugins that failed to load, duplicates. Empty when ready.
    package var problems: [String] { catalog.report.failures.map(\.description) }

    /// How many requests waited for each provider's request budget.
    var rateLimitWaits: [String: Int] {
        var waits: [String: Int] = [:]
        for (provider, policy) in config.providerPolicies where policy.requestsPerSecond != nil {
            if let bucket = try? container.resolve(TokenBucket.self, name: provider) { waits[provider] = bucket.waitCount }
        }
        return waits
    }
}

/// The generation being served, swapped whole on reload.
package final class ServeState: Sendable {
    /// Every generation, the current one last. The earlier ones stay alive anyway: a
    /// plugin keeps the HTTP client (and request budget) of the generation that loaded it.
    private let generations: Lock<[ServeGeneration]>

    package init(_ generation: ServeGeneration) {
        generations = Lock([generation])
    }

    /// The generation requests are answered with now.
    package var current: ServeGeneration {
        // Never empty: it starts with one and only grows.
        generations.withLock { $0[$0.count - 1] }
    }

    /// Serves `next` from now on; requests already running finish with the one they started with.
    package func replace(with next: ServeGeneration) {
        generations.withLock { $0.append(next) }
    }

    /// Requests that waited for each provider's budget, in every generation's budgets.
    var rateLimitWaits: [String: Int] {
        generations.withLock { $0 }.reduce(into: [:]) { total, generation in
            total.merge(generation.rateLimitWaits, uniquingKeysWith: +)
        }
    }
}
