import ProviderABI

extension QuoteService {
    /// Whether `failure` says that the provider does not quote the pair (`not_found`, or `invalid_request`:
    /// a pair or currency it does not support), rather than that it could not answer now. Only then is a
    /// pair derived: a venue that quotes the pair but timed out or is down is an outage to see, not to hide.
    static func isNotQuoted(_ failure: QuoteFailure) -> Bool {
        failure.code == .notFound || failure.code == .invalidRequest
    }

    /// The pair through each bridge of `crossVia`, in order, the first that works, checked as any quote of
    /// the asset is (its bounds and `maxAgeSeconds`, and the client's `maxAge`, which each leg must pass too);
    /// else `direct`, the direct providers' failure, with what each bridge lacked. A bridge that is the pair's
    /// currency is skipped: its first leg is the pair. Its `status` is the worse of its legs' and its own.
    func crossRate(for route: Route, request: QuoteRequest, direct: QuoteFailure, maxAge: MaxAge?) async -> Result<Quote, QuoteFailure> {
        guard request.asset != request.currency else { return .failure(direct) }
        var shortfalls: [String] = []
        for bridge in config.crossVia where bridge != request.currency {
            switch await crossRate(for: route, request: request, via: bridge, maxAge: maxAge) {
            case .success(let quote):
                return judge(quote, from: CrossRate.provider, maxAge: maxAge).map { judged in
                    var judged = judged
                    if quote.status == .stale { judged.status = .stale }
                    return judged
                }
            case .failure(let shortfall):
                shortfalls.append("via \(bridge), \(shortfall)")
            }
        }
        guard !shortfalls.isEmpty else { return .failure(direct) }
        var failure = direct
        failure.message += "; no cross rate: " + shortfalls.joined(separator: "; ")
        return .failure(failure)
    }

    /// ASSET-CURRENCY through `bridge`: ASSET-BRIDGE and CURRENCY-BRIDGE are asked at once, and when
    /// CURRENCY-BRIDGE is not quoted, BRIDGE-CURRENCY. When the asset is the bridge, CURRENCY-ASSET alone,
    /// inverted (ASSET-CURRENCY itself is the direct pair). Else what was missing, in words.
    private func crossRate(for route: Route, request: QuoteRequest, via bridge: String, maxAge: MaxAge?) async -> Result<Quote, CrossRateError> {
        let asset = request.asset, currency = request.currency
        if asset == bridge {
            return switch await leg(currency, bridge, for: route, maxAge: maxAge) {
            case .success(let inverse): derive(request, first: nil, second: inverse, shape: .inverse)
            case .failure(let failure): .failure(Self.shortfall([failure]))
            }
        }
        async let assetLeg = leg(asset, bridge, for: route, maxAge: maxAge)
        async let currencyLeg = leg(currency, bridge, for: route, maxAge: maxAge)
        switch await (assetLeg, currencyLeg) {
        case (.success(let first), .success(let second)):
            return derive(request, first: first, second: second, shape: .quotient)
        case (.success(let first), .failure(let missing)) where missing.isNotQuoted:
            switch await leg(bridge, currency, for: route, maxAge: maxAge) {
            case .success(let second): return derive(request, first: first, second: second, shape: .product)
            case .failure(let failure): return .failure(Self.shortfall([missing, failure]))
            }
        case (let first, let second):
            return .failure(Self.shortfall([first, second].compactMap { if case .failure(let failure) = $0 { failure } else { nil } }))
        }
    }

    private func derive(_ request: QuoteRequest, first: Quote?, second: Quote, shape: CrossRate.Shape) -> Result<Quote, CrossRateError> {
        CrossRate.quote(asset: request.asset, currency: request.currency, first: first, second: second, shape: shape)
    }

    /// One leg, `asset`-`currency`, asked as any pair is: of the providers the caller named, else of the
    /// asset's own (`route`'s, when it is the route's asset); never derived itself.
    private func leg(_ asset: String, _ currency: String, for route: Route, maxAge: MaxAge?) async -> Result<Quote, LegFailure> {
        let request = QuoteRequest(asset: asset, currency: currency)
        let legRoute: Route
        if asset == route.asset {
            legRoute = route
        } else {
            do throws(RoutingError) {
                legRoute = try self.route(asset: asset, explicitProviders: route.namedProviders)
            } catch {
                if case .noProvider = error { return .failure(LegFailure(pair: request.pair, providers: "no provider for \(asset)", reason: nil)) }
                return .failure(LegFailure(pair: request.pair, providers: "", reason: error.description))
            }
        }
        switch await directQuote(legRoute, request: request, maxAge: maxAge) {
        case .success(let quote): return .success(quote)
        case .failure(let failed):
            guard failed.isNotQuoted else {
                let reason = failed.combined(of: legRoute, request: request, in: self)
                return .failure(LegFailure(pair: request.pair, providers: "", reason: reason.description))
            }
            return .failure(LegFailure(pair: request.pair, providers: legRoute.providers.joined(separator: ","), reason: nil))
        }
    }

    /// A leg that could not be had: not quoted by `providers`, or failed for another reason.
    struct LegFailure: Error {
        /// `ETH-USD`.
        var pair: String
        /// Who was asked, for a pair not quoted: `file`, `a,b`, or `no provider for EUR`.
        var providers: String
        /// Why it failed when that is not a missing pair (a timeout, an outage); `nil` when the pair is not quoted.
        var reason: String?

        var isNotQuoted: Bool { reason == nil }
    }

    /// `missing EUR-USD (file) and USD-EUR (file)`, then `ETH-USD failed (coinbase: …)` for each other failure.
    private static func shortfall(_ failures: [LegFailure]) -> CrossRateError {
        let missing = failures.filter(\.isNotQuoted).map { "\($0.pair) (\($0.providers))" }
        let failed = failures.compactMap { failure in failure.reason.map { "\(failure.pair) failed (\($0))" } }
        return CrossRateError(((missing.isEmpty ? [] : ["missing " + missing.joined(separator: " and ")]) + failed).joined(separator: ", "))
    }
}
