import ConcurrencyHelpers
import Injection

/// One loaded config and what was built from it: what `serve` answers with until
/// SIGHUP builds the next one.
struct ServeGeneration: Sendable {
    let config: Config
    let container: Container
    let catalog: ProviderCatalog
    let service: QuoteService
    /// What this instance shares with the fleet through Redis; `nil` without `shared.redis`.
    var fleet: SharedFleet?

    /// Why `/readyz` says not ready: plugins that failed to load, duplicates. Empty when ready.
    var problems: [String] { catalog.report.failures.map(\.description) }

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
final class ServeState: Sendable {
    private let generation: Lock<ServeGeneration>

    init(_ generation: ServeGeneration) {
        self.generation = Lock(generation)
    }

    /// The generation requests are answered with now.
    var current: ServeGeneration { generation.withLock { $0 } }

    /// Serves `next` from now on; requests already running finish with the one they started with.
    func replace(with next: ServeGeneration) {
        generation.withLock { $0 = next }
    }
}
