import FoundationEssentials
import PriceHostCore
import ProviderABI

extension ServeRouter {
    /// `GET /v1/prices?asset=BTC,ETH[&currency=EUR][&provider=a,b][&aggregate=median][&maxAgeSeconds=30]`: a JSON array with,
    /// per asset in the order asked, the object `fetch --format json` prints (with `ageMs`), or
    /// `{"asset","currency","error","timestamp"}` (and `ageMs` for a quote refused as older than `maxAgeSeconds`).
    /// 200 when at least one asset has a price, 502 when none has, 400 for bad parameters.
    ///
    /// Quotes the cache holds for every asset are answered at once, on the event loop
    /// (``QuoteService/cachedQuotes(_:currency:)``); any other answer is fetched on the
    /// cooperative pool (``ServeReply/later(_:)``).
    package func prices(_ request: ServeRequest, _ generation: ServeGeneration) -> ServeReply {
        let query: ServeQuery
        do {
            query = try ServeQuery.parse(request.query, allowed: ["asset", "currency", "provider", "aggregate", "maxAgeSeconds"])
        } catch {
            return .response(.error(400, error.message), route: "prices")
        }
        let currency = query.currency ?? generation.config.defaultCurrency
        let routed: [Result<QuoteService.Route, RoutingError>]
        switch Self.routes(for: query.assets, providers: query.providers, in: generation) {
        case .success(let routes): routed = routes
        case .failure(let rejection): return .response(rejection.response, route: "prices")
        }
        let routes = routed.compactMap { try? $0.get() }
        let service = generation.service
        let maxAge = query.maxAge
        if !query.aggregateMedian, let cached = service.cachedQuotes(routes, currency: currency, maxAge: maxAge) {
            return .response(Self.prices(query, currency: currency, routed: routed, quotes: cached, at: metrics.clock.wallNow), route: "prices")
        }
        return .later {
            if query.aggregateMedian {
                let results = await service.aggregate(routes, currency: currency, maxAge: maxAge).map(\.result)
                let metrics = self.metrics
                for case .success(let aggregate) in results { metrics.recordMedian(aggregate, receivedAt: metrics.clock.wallNow) }
                return .response(Self.prices(query, currency: currency, routed: routed, aggregates: results, at: metrics.clock.wallNow), route: "prices")
            }
            let results = await service.fetch(routes, currency: currency, maxAge: maxAge)
            return .response(Self.prices(query, currency: currency, routed: routed, quotes: results, at: self.metrics.clock.wallNow), route: "prices")
        }
    }

    /// The lines of the quotes answered lately, shared by every generation (a quote's line does not depend on the config).
    private static let quoteLines = QuoteLines()

    /// The answer from each routed asset's quote (`quotes`, in the routes' order).
    static func prices(_ query: ServeQuery, currency: String, routed: [Result<QuoteService.Route, RoutingError>],
                       quotes: [Result<Quote, any Error>], at now: Date) -> ServeResponse {
        let routes = routed.compactMap { try? $0.get() }
        var lines: [String: (text: String, isPrice: Bool)] = [:]
        for (route, result) in zip(routes, quotes) {
            switch result {
            case .success(let quote): lines[route.asset] = (quoteLines.json(quote, at: now), true)
            case .failure(let error):
                lines[route.asset] = (QuoteFormatter.failureLine(asset: route.asset, currency: currency, error: error, at: now), false)
            }
        }
        return prices(query, currency: currency, routed: routed, lines: lines, at: now)
    }

    /// The answer from each routed asset's median (`aggregates`, in the routes' order).
    static func prices(_ query: ServeQuery, currency: String, routed: [Result<QuoteService.Route, RoutingError>],
                       aggregates: [Result<AggregateQuote, QuoteFailure>], at now: Date) -> ServeResponse {
        let routes = routed.compactMap { try? $0.get() }
        var lines: [String: (text: String, isPrice: Bool)] = [:]
        for (route, result) in zip(routes, aggregates) {
            switch result {
            case .success(let aggregate): lines[route.asset] = (AggregateFormatter.json(aggregate).serialized, true)
            case .failure(let failure):
                lines[route.asset] = (QuoteFormatter.failureLine(asset: route.asset, currency: currency, error: failure, at: now), false)
            }
        }
        return prices(query, currency: currency, routed: routed, lines: lines, at: now)
    }

    /// The JSON array, each asset in the order asked: its line, or its routing error. 200 when at least one is a price, else 502.
    private static func prices(_ query: ServeQuery, currency: String, routed: [Result<QuoteService.Route, RoutingError>],
                               lines: [String: (text: String, isPrice: Bool)], at now: Date) -> ServeResponse {
        var items: [String] = []
        var succeeded = 0
        for (asset, route) in zip(query.assets, routed) {
            if case .failure(let error) = route {
                items.append(QuoteFormatter.failureLine(asset: asset, currency: currency, message: error.description, at: now))
            } else if let line = lines[asset] {
                items.append(line.text)
                if line.isPrice { succeeded += 1 }
            }
        }
        return .json(succeeded > 0 ? 200 : 502, "[" + items.joined(separator: ",") + "]")
    }

    /// Each asset's route, or its routing error; a provider the client named that nothing provides is a 400 for the whole request.
    package static func routes(for assets: [String], providers: [String]?, in generation: ServeGeneration)
        -> Result<[Result<QuoteService.Route, RoutingError>], Rejection> {
        let routing = generation.service.routes(for: assets, explicitProviders: providers)
        for (_, error) in routing.failures {
            if case .unknownProvider = error {
                return .failure(Rejection(response: .error(400, error.message(providersNamedBy: ServeQuery.providerSource))))
            }
        }
        return .success(routing.results.map(\.result))
    }

    /// A request refused as a whole.
    package struct Rejection: Error {
        var response: ServeResponse
    }
}
