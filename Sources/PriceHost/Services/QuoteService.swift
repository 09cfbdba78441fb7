import Injection
import ProviderABI

/// Decides who answers for each asset and fetches the quotes.
///
/// The provider for an asset is `--provider`, else `assets.X.provider`, else
/// `defaults.provider`. Within a provider, a fetcher dedicated to the asset
/// (`provider/ASSET`) wins over the general one (`provider`).
public struct QuoteService: Sendable {
    /// A provider chosen for an asset, and the container name of its fetcher.
    public struct Route: Sendable, Equatable {
        /// The asset.
        public var asset: String
        /// The provider.
        public var provider: String
        /// `provider/ASSET` or `provider`; `nil` when the provider has no fetcher for the asset.
        public var fetcherName: String?
    }

    private let container: Container
    private let config: Config
    private let report: PluginLoadReport

    /// Creates a service over a container built by ``CompositionRoot``.
    public init(container: Container, config: Config, report: PluginLoadReport) {
        self.container = container
        self.config = config
        self.report = report
    }

    /// Chooses the provider and fetcher for `asset`.
    /// - Throws: ``UsageError`` when `--provider` names a provider no plugin
    ///   provides or no provider is configured; ``ConfigError`` naming the key
    ///   when the config names such a provider.
    public func route(asset: String, explicitProvider: String?) throws -> Route {
        let provider: String
        if let explicitProvider {
            try requireNotFailed(explicitProvider)
            guard report.plugin(named: explicitProvider) != nil else {
                throw UsageError("unknown provider '\(explicitProvider)' (from --provider); \(loadedProvidersText)")
            }
            provider = explicitProvider
        } else {
            let key: String
            if let fromAsset = config.assets[asset]?.provider {
                (provider, key) = (fromAsset, "assets.\(asset).provider")
            } else if let fromDefaults = config.defaults.provider {
                (provider, key) = (fromDefaults, "defaults.provider")
            } else {
                throw UsageError("no provider for \(asset): pass --provider NAME, or set defaults.provider or assets.\(asset).provider in \(config.path)")
            }
            try requireNotFailed(provider)
            guard report.plugin(named: provider) != nil else {
                throw ConfigError(path: config.path, reason: "\(key): no loaded plugin provides '\(provider)'; \(loadedProvidersText)")
            }
        }
        let dedicated = "\(provider)/\(asset)"
        let names = Set(container.names(for: PriceFetcher.self))
        let fetcherName = names.contains(dedicated) ? dedicated : names.contains(provider) ? provider : nil
        return Route(asset: asset, provider: provider, fetcherName: fetcherName)
    }

    /// Fetches each route's quote concurrently, at most `maxConcurrentRequests`
    /// at once per provider; the results keep the routes' order.
    public func fetch(_ routes: [Route], currency: String) async -> [Result<Quote, any Error>] {
        await withTaskGroup(of: (Int, Result<Quote, any Error>).self) { group in
            var results = [Result<Quote, any Error>?](repeating: nil, count: routes.count)
            var waiting = Array(routes.indices)
            var inFlight: [String: Int] = [:]
            func startEligible() {
                var stillWaiting: [Int] = []
                for index in waiting {
                    let route = routes[index]
                    if inFlight[route.provider, default: 0] < config.policy(for: route.provider).maxConcurrentRequests {
                        inFlight[route.provider, default: 0] += 1
                        group.addTask { (index, await fetch(route, currency: currency)) }
                    } else {
                        stillWaiting.append(index)
                    }
                }
                waiting = stillWaiting
            }
            startEligible()
            while let (index, result) = await group.next() {
                results[index] = result
                inFlight[routes[index].provider, default: 1] -= 1
                startEligible()
            }
            // Every index was started and every started task reported: no nil is left.
            return results.compactMap { $0 }
        }
    }

    private func fetch(_ route: Route, currency: String) async -> Result<Quote, any Error> {
        let request = QuoteRequest(asset: route.asset, currency: currency)
        guard let fetcherName = route.fetcherName else {
            let served = report.plugin(named: route.provider)?.fetchers.compactMap(\.asset) ?? []
            let only = served.isEmpty ? "" : " (it serves only \(served.joined(separator: ", ")))"
            return .failure(QuoteFailure(provider: route.provider, request: request, code: .notFound,
                                         message: "no fetcher for \(route.asset)\(only)"))
        }
        do {
            let fetcher = try container.resolve(PriceFetcher.self, name: fetcherName)
            return .success(try await fetcher.fetchQuote(for: request))
        } catch let failure as QuoteFailure {
            return .failure(failure)
        } catch {
            return .failure(QuoteFailure(provider: route.provider, request: request, code: .failed, message: "\(error)"))
        }
    }

    /// A provider whose plugin was found but failed to load is a plugin error, not an unknown name.
    private func requireNotFailed(_ provider: String) throws {
        guard report.plugin(named: provider) == nil, let failure = report.failure(named: provider) else { return }
        throw ConfigError(path: failure.path, reason: "provider '\(provider)' is this plugin's, which failed to load: \(failure.reason)")
    }

    private var loadedProvidersText: String {
        let names = report.plugins.map(\.name).sorted()
        return names.isEmpty ? "no plugin loaded" : "loaded providers: \(names.joined(separator: ", "))"
    }
}
