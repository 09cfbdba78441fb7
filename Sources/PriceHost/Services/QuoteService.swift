import Foundation
import Injection
import ProviderABI

/// Decides who answers for each asset and fetches the quotes.
///
/// The providers for an asset are `--provider` (one, or a comma list), else
/// `assets.X.providers` or `assets.X.provider`, else `defaults.provider`;
/// several are tried in order until one answers with a quote that passes the
/// checks (age, bounds). Within a provider, a fetcher dedicated to the asset
/// (`provider/ASSET`) wins over the general one (`provider`).
struct QuoteService: Sendable {
    /// The providers chosen for an asset, in the order they are tried.
    struct Route: Sendable, Equatable {
        /// One provider and the container name of its fetcher for the asset.
        struct Choice: Sendable, Equatable {
            /// The provider.
            var provider: String
            /// `provider/ASSET` or `provider`; `nil` when the provider has no fetcher for the asset.
            var fetcherName: String?
        }

        /// The asset.
        var asset: String
        /// The providers, in order; never empty.
        var choices: [Choice]

        /// The first provider: the one whose concurrency bound the fetch counts against.
        var provider: String { choices[0].provider }
    }

    private let container: Container
    private let config: Config
    private let report: PluginLoadReport
    private let warn: @Sendable (String) -> Void
    private let now: @Sendable () -> Date

    /// Creates a service over a container built by ``CompositionRoot``; `warn` receives stale-quote warnings.
    init(container: Container, config: Config, report: PluginLoadReport,
                warn: @escaping @Sendable (String) -> Void = { _ in }, now: @escaping @Sendable () -> Date = { Date() }) {
        self.container = container
        self.config = config
        self.report = report
        self.warn = warn
        self.now = now
    }

    /// Chooses the providers and fetchers for `asset`.
    /// - Throws: ``UsageError`` when `--provider` names a provider no plugin
    ///   provides or no provider is configured; ``ConfigError`` naming the key
    ///   when the config names such a provider.
    func route(asset: String, explicitProviders: [String]?) throws -> Route {
        let providers: [String]
        if let explicitProviders, !explicitProviders.isEmpty {
            for provider in explicitProviders {
                try requireNotFailed(provider)
                guard report.plugin(named: provider) != nil else {
                    throw UsageError("unknown provider '\(provider)' (from --provider); \(loadedProvidersText)")
                }
            }
            providers = explicitProviders
        } else {
            guard let configured = Self.configuredProviders(for: asset, config: config) else {
                throw UsageError("no provider for \(asset): pass --provider NAME, or set defaults.provider or assets.\(asset).provider in \(config.path)")
            }
            let key: String
            (providers, key) = configured
            for provider in providers {
                try requireNotFailed(provider)
                guard report.plugin(named: provider) != nil else {
                    throw ConfigError(path: config.path, reason: "\(key): no loaded plugin provides '\(provider)'; \(loadedProvidersText)")
                }
            }
        }
        let names = Set(container.names(for: PriceFetcher.self))
        return Route(asset: asset, choices: providers.map { provider in
            let dedicated = "\(provider)/\(asset)"
            return Route.Choice(provider: provider, fetcherName: names.contains(dedicated) ? dedicated : names.contains(provider) ? provider : nil)
        })
    }

    /// Every provider that routing `assets` can involve, so that a fetch loads
    /// only the plugins it needs; `nil` when an asset has no provider at all
    /// (routing will say so, after every plugin has been loaded).
    static func providersNeeded(for assets: [String], explicitProviders: [String]?, config: Config) -> Set<String>? {
        if let explicitProviders, !explicitProviders.isEmpty { return Set(explicitProviders) }
        var needed = Set<String>()
        for asset in assets {
            guard let (providers, _) = configuredProviders(for: asset, config: config) else { return nil }
            needed.formUnion(providers)
        }
        return needed
    }

    /// The providers the config names for `asset`, and the key that names them.
    private static func configuredProviders(for asset: String, config: Config) -> (providers: [String], key: String)? {
        if let fromAsset = config.assets[asset]?.providerOrder {
            return (fromAsset, config.assets[asset]?.providers != nil ? "assets.\(asset).providers" : "assets.\(asset).provider")
        }
        return config.defaults.provider.map { ([$0], "defaults.provider") }
    }

    /// Fetches each route's quote concurrently, at most `maxConcurrentRequests`
    /// at once per (first) provider; the results keep the routes' order.
    func fetch(_ routes: [Route], currency: String) async -> [Result<Quote, any Error>] {
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

    /// Asks every provider of each route at once and aggregates what they answer;
    /// a source that fails is left out (and returned in `failures`), and a route
    /// with no source left fails with every reason. Routes keep their order.
    func aggregate(_ routes: [Route], currency: String) async -> [(result: Result<AggregateQuote, QuoteFailure>, failures: [QuoteFailure])] {
        await withTaskGroup(of: (Int, Result<AggregateQuote, QuoteFailure>, [QuoteFailure]).self) { group in
            for (index, route) in routes.enumerated() {
                group.addTask {
                    let request = QuoteRequest(asset: route.asset, currency: currency)
                    let answers = await withTaskGroup(of: (Int, Result<Quote, QuoteFailure>).self) { sources in
                        for (position, choice) in route.choices.enumerated() {
                            sources.addTask { (position, await usableQuote(from: choice, request: request)) }
                        }
                        var answers: [(Int, Result<Quote, QuoteFailure>)] = []
                        for await answer in sources { answers.append(answer) }
                        return answers.sorted { $0.0 < $1.0 }.map(\.1)
                    }
                    let quotes = answers.compactMap { try? $0.get() }
                    let failures = answers.compactMap { if case .failure(let failure) = $0 { failure } else { nil } }
                    guard !quotes.isEmpty else {
                        return (index, .failure(combined(failures, of: route, request: request, saying: "no source answered")), [])
                    }
                    let limit = config.assets[route.asset]?.maxDeviationBps.map { Decimal($0) }
                    return (index, .success(AggregateQuote(sources: quotes, maxDeviationBps: limit)), failures)
                }
            }
            var results = [(result: Result<AggregateQuote, QuoteFailure>, failures: [QuoteFailure])?](repeating: nil, count: routes.count)
            for await (index, result, failures) in group { results[index] = (result, failures) }
            return results.compactMap { $0 }
        }
    }

    /// The first acceptable quote from the route's providers, in order; else every failure, in one line.
    private func fetch(_ route: Route, currency: String) async -> Result<Quote, any Error> {
        let request = QuoteRequest(asset: route.asset, currency: currency)
        var failures: [QuoteFailure] = []
        for choice in route.choices {
            switch await usableQuote(from: choice, request: request) {
            case .success(let quote): return .success(quote)
            case .failure(let failure): failures.append(failure)
            }
        }
        guard failures.count > 1 else { return .failure(failures[0]) }
        return .failure(combined(failures, of: route, request: request, saying: "every provider failed"))
    }

    /// One provider's quote, if it answered with one that passes ``check(_:from:)``.
    private func usableQuote(from choice: Route.Choice, request: QuoteRequest) async -> Result<Quote, QuoteFailure> {
        switch await fetch(choice, request: request) {
        case .success(let quote):
            if let problem = check(quote, from: choice.provider) { return .failure(problem) }
            return .success(quote)
        case .failure(let failure):
            return .failure(failure)
        }
    }

    /// Several providers' failures as one, each reason on the one line.
    private func combined(_ failures: [QuoteFailure], of route: Route, request: QuoteRequest, saying summary: String) -> QuoteFailure {
        QuoteFailure(provider: route.choices.map(\.provider).joined(separator: ","), request: request, code: failures.last?.code ?? .failed,
                     message: "\(summary) for \(request.pair): " + failures.map(\.description).joined(separator: "; "))
    }

    private func fetch(_ choice: Route.Choice, request: QuoteRequest) async -> Result<Quote, QuoteFailure> {
        guard let fetcherName = choice.fetcherName else {
            let served = report.plugin(named: choice.provider)?.fetchers.compactMap(\.asset) ?? []
            let only = served.isEmpty ? "" : " (it serves only \(served.joined(separator: ", ")))"
            return .failure(QuoteFailure(provider: choice.provider, request: request, code: .notFound,
                                         message: "no fetcher for \(request.asset)\(only)"))
        }
        do {
            let fetcher = try container.resolve(PriceFetcher.self, name: fetcherName)
            return .success(try await fetcher.fetchQuote(for: request))
        } catch let failure as QuoteFailure {
            return .failure(failure)
        } catch {
            return .failure(QuoteFailure(provider: choice.provider, request: request, code: .failed, message: "\(error)"))
        }
    }

    /// Why `quote` must not be used: outside the asset's bounds, or older than the allowed age.
    /// A stale quote under `staleQuotes: "warn"` is used, with a warning.
    func check(_ quote: Quote, from provider: String) -> QuoteFailure? {
        let request = QuoteRequest(asset: quote.asset, currency: quote.currency)
        let asset = config.assets[quote.asset]
        let amount = DecimalAmount.format(quote.amount)
        if let minimum = asset?.minimum, quote.amount < minimum {
            return QuoteFailure(provider: provider, request: request, code: .invalidResponse,
                                message: "price \(amount) for \(request.pair) is below assets.\(quote.asset).bounds.min (\(DecimalAmount.format(minimum)))")
        }
        if let maximum = asset?.maximum, quote.amount > maximum {
            return QuoteFailure(provider: provider, request: request, code: .invalidResponse,
                                message: "price \(amount) for \(request.pair) is above assets.\(quote.asset).bounds.max (\(DecimalAmount.format(maximum)))")
        }
        let policy = config.policy(for: provider)
        let (limit, key) = asset?.maxAgeSeconds.map { ($0, "assets.\(quote.asset).maxAgeSeconds") }
            ?? policy.maxAgeSeconds.map { ($0, "providers.\(provider).maxAgeSeconds") } ?? (0, "")
        let age = Int(now().timeIntervalSince(quote.timestamp).rounded(.down))
        guard limit > 0, age > limit else { return nil }
        let message = "quote for \(request.pair) is \(age) s old (from \(ISO8601Timestamp.format(quote.timestamp))); \(key) is \(limit)"
        if policy.warnOnStaleQuotes {
            warn("\(provider): \(message); using it (staleQuotes: warn)")
            return nil
        }
        return QuoteFailure(provider: provider, request: request, code: .invalidResponse, message: message)
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
