import FoundationEssentials
import Injection
import ProviderABI

/// Decides who answers for each asset and fetches the quotes.
///
/// The providers for an asset are `--provider` (one, or a comma list), else
/// `assets.X.providers` or `assets.X.provider`, else `defaults.provider`;
/// several are tried in order until one answers with a quote that passes the
/// checks (age, bounds). Within a provider, a fetcher dedicated to the asset
/// (`provider/ASSET`) wins over the general one (`provider`).
package struct QuoteService: Sendable {
    /// The providers chosen for an asset, in the order they are tried.
    package struct Route: Sendable, Equatable {
        /// One provider and the container name of its fetcher for the asset.
        struct Choice: Sendable, Equatable {
            /// The provider.
            package var provider: String
            /// `provider/ASSET` or `provider`; `nil` when the provider has no fetcher for the asset.
            var fetcherName: String?
        }

        /// The asset.
        package var asset: String
        /// The providers, in order; never empty.
        var choices: [Choice]
        /// The providers the caller named (`--provider`), of which a cross rate's legs are asked too;
        /// `nil` when the config chose them (each leg then goes to its own asset's providers).
        var namedProviders: [String]? = nil

        /// Every provider, in order.
        package var providers: [String] { choices.map(\.provider) }

        /// The first provider: the one whose concurrency bound the fetch counts against.
        package var provider: String { choices[0].provider }
    }

    let container: Container
    package let config: Config
    package let catalog: ProviderCatalog
    private let warn: @Sendable (String) -> Void
    private let now: @Sendable () -> Date

    /// Creates a service over a container built by ``CompositionRoot`` and the
    /// providers `catalog` has loaded into it; `warn` receives stale-quote warnings.
    package init(container: Container, catalog: ProviderCatalog,
                warn: @escaping @Sendable (String) -> Void = { _ in }, now: @escaping @Sendable () -> Date = { Date() }) {
        self.container = container
        self.config = catalog.config
        self.catalog = catalog
        self.warn = warn
        self.now = now
    }

    /// Fetches each route's quote concurrently, at most `maxConcurrentRequests`
    /// at once per (first) provider; the results keep the routes' order.
    /// - Parameter maxAge: the client's own limit on a quote's age (``MaxAge``), if any.
    package func fetch(_ routes: [Route], currency: String, maxAge: MaxAge? = nil) async -> [Result<Quote, any Error>] {
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
                        group.addTask { (index, await fetch(route, currency: currency, maxAge: maxAge)) }
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
    package func aggregate(_ routes: [Route], currency: String, maxAge: MaxAge? = nil)
        async -> [(result: Result<AggregateQuote, QuoteFailure>, failures: [QuoteFailure])] {
        await withTaskGroup(of: (Int, Result<AggregateQuote, QuoteFailure>, [QuoteFailure]).self) { group in
            for (index, route) in routes.enumerated() {
                group.addTask {
                    let request = QuoteRequest(asset: route.asset, currency: currency)
                    let answers = await withTaskGroup(of: (Int, Result<Quote, QuoteFailure>).self) { sources in
                        for (position, choice) in route.choices.enumerated() {
                            sources.addTask { (position, await usableQuote(from: choice, request: request, maxAge: maxAge)) }
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
                    var aggregate = AggregateQuote(sources: quotes, maxDeviationBps: limit)
                    aggregate.excluded = failures.map { AggregateQuote.Exclusion(provider: $0.provider, why: $0.whyExcluded) }
                    return (index, .success(aggregate), failures)
                }
            }
            var results = [(result: Result<AggregateQuote, QuoteFailure>, failures: [QuoteFailure])?](repeating: nil, count: routes.count)
            for await (index, result, failures) in group { results[index] = (result, failures) }
            return results.compactMap { $0 }
        }
    }

    /// The first acceptable quote from the route's providers, in order; else, when none of them quotes
    /// the pair, a cross rate (``crossRate(for:request:direct:maxAge:)``); else every failure, in one line.
    private func fetch(_ route: Route, currency: String, maxAge: MaxAge?) async -> Result<Quote, any Error> {
        let request = QuoteRequest(asset: route.asset, currency: currency)
        let failed: DirectFailures
        switch await directQuote(route, request: request, maxAge: maxAge) {
        case .success(let quote): return .success(quote)
        case .failure(let failures): failed = failures
        }
        let failure = failed.combined(of: route, request: request, in: self)
        guard failed.isNotQuoted else { return .failure(failure) }
        return await crossRate(for: route, request: request, direct: failure, maxAge: maxAge).mapError { $0 }
    }

    /// The first acceptable quote from the route's providers, in order; else each one's failure.
    func directQuote(_ route: Route, request: QuoteRequest, maxAge: MaxAge?) async -> Result<Quote, DirectFailures> {
        var failures: [QuoteFailure] = []
        for choice in route.choices {
            switch await usableQuote(from: choice, request: request, maxAge: maxAge) {
            case .success(let quote): return .success(quote)
            case .failure(let failure): failures.append(failure)
            }
        }
        return .failure(DirectFailures(failures: failures))
    }

    /// Every provider's failure for a pair, in the route's order; never empty.
    struct DirectFailures: Error {
        var failures: [QuoteFailure]

        /// Whether no provider quotes the pair (``QuoteService/isNotQuoted(_:)``), rather than one failed to answer.
        var isNotQuoted: Bool { failures.allSatisfy(QuoteService.isNotQuoted) }

        /// The one failure, or every provider's reason on one line.
        func combined(of route: Route, request: QuoteRequest, in service: QuoteService) -> QuoteFailure {
            failures.count > 1 ? service.combined(failures, of: route, request: request, saying: "every provider failed") : failures[0]
        }
    }

    /// One provider's quote with its `status`, if it answered with one that passes ``judge(_:from:maxAge:)``.
    private func usableQuote(from choice: Route.Choice, request: QuoteRequest, maxAge: MaxAge?) async -> Result<Quote, QuoteFailure> {
        switch await fetch(choice, request: request) {
        case .success(let quote): return judge(quote, from: choice.provider, maxAge: maxAge)
        case .failure(let failure): return .failure(failure)
        }
    }

    /// Several providers' failures as one, each reason on the one line.
    func combined(_ failures: [QuoteFailure], of route: Route, request: QuoteRequest, saying summary: String) -> QuoteFailure {
        QuoteFailure(provider: route.choices.map(\.provider).joined(separator: ","), request: request, code: failures.last?.code ?? .failed,
                     message: "\(summary) for \(request.pair): " + failures.map(\.description).joined(separator: "; "))
    }

    private func fetch(_ choice: Route.Choice, request: QuoteRequest) async -> Result<Quote, QuoteFailure> {
        guard let fetcherName = choice.fetcherName else {
            let served = catalog.plugin(named: choice.provider)?.fetchers.compactMap(\.asset) ?? []
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

    /// `quote` with its `status` (``QuoteStatus``), or why it must not be used: outside the asset's bounds,
    /// older than the config's `maxAgeSeconds` (a quote `staleQuotes: "warn"` lets through is `stale`),
    /// or older than the client's own `maxAge` (refused whatever `staleQuotes` says).
    package func judge(_ quote: Quote, from provider: String, maxAge: MaxAge? = nil) -> Result<Quote, QuoteFailure> {
        let now = now()
        if let maxAge, let refusal = maxAge.refusal(of: quote, from: provider, at: now) { return .failure(refusal) }
        var judged = quote
        switch check(quote, from: provider, at: now) {
        case .failure(let failure): return .failure(failure)
        case .success(let isStale): judged.status = isStale ? .stale : .live
        }
        return .success(judged)
    }

    /// Why `quote` must not be used at `now`: outside the asset's bounds, or older than the allowed age;
    /// true when it is used though stale (`staleQuotes: "warn"`, with a warning).
    private func check(_ quote: Quote, from provider: String, at now: Date) -> Result<Bool, QuoteFailure> {
        let request = QuoteRequest(asset: quote.asset, currency: quote.currency)
        let asset = config.assets[quote.asset]
        // Formatted only for a message: `serve` checks every cached quote it answers.
        var amount: String { DecimalAmount.format(quote.amount) }
        if let minimum = asset?.minimum, quote.amount < minimum {
            var failure = QuoteFailure(provider: provider, request: request, code: .invalidResponse,
                                       message: "price \(amount) for \(request.pair) is below assets.\(quote.asset).bounds.min (\(DecimalAmount.format(minimum)))")
            failure.exclusion = "out of bounds: \(amount) is below assets.\(quote.asset).bounds.min (\(DecimalAmount.format(minimum)))"
            return .failure(failure)
        }
        if let maximum = asset?.maximum, quote.amount > maximum {
            var failure = QuoteFailure(provider: provider, request: request, code: .invalidResponse,
                                       message: "price \(amount) for \(request.pair) is above assets.\(quote.asset).bounds.max (\(DecimalAmount.format(maximum)))")
            failure.exclusion = "out of bounds: \(amount) is above assets.\(quote.asset).bounds.max (\(DecimalAmount.format(maximum)))"
            return .failure(failure)
        }
        let policy = config.policy(for: provider)
        let (limit, key) = asset?.maxAgeSeconds.map { ($0, "assets.\(quote.asset).maxAgeSeconds") }
            ?? policy.maxAgeSeconds.map { ($0, "providers.\(provider).maxAgeSeconds") } ?? (0, "")
        let age = Int(now.timeIntervalSince(quote.timestamp).rounded(.down))
        guard limit > 0, age > limit else { return .success(false) }
        let message = "quote for \(request.pair) is \(age) s old (from \(ISO8601Timestamp.format(quote.timestamp))); \(key) is \(limit)"
        if policy.warnOnStaleQuotes {
            warn("\(provider): \(message); using it (staleQuotes: warn)")
            return .success(true)
        }
        var failure = QuoteFailure(provider: provider, request: request, code: .invalidResponse, message: message)
        failure.exclusion = AggregateQuote.Exclusion.stale(ageSeconds: age, maxAgeSeconds: limit)
        failure.ageMilliseconds = quote.ageMilliseconds(at: now)
        return .failure(failure)
    }
}
