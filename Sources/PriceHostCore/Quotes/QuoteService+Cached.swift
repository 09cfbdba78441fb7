import FoundationEssentials
import Injection
import ProviderABI

extension QuoteService {
    /// What ``fetch(_:currency:)`` would answer, when every route's first provider has a fresh
    /// quote kept (``QuoteCache``) that passes the checks; `nil` otherwise (then fetch, which
    /// may wait). Without waiting: `serve` answers a cached quote on its event loop.
    ///
    /// Every route is looked up before any is checked, and the hits are counted only when all
    /// passed, so a `nil` followed by a fetch counts each once. (A stale quote used with a warning,
    /// `staleQuotes: "warn"`, beside another route's quote that fails its check, is warned of twice.)
    package func cachedQuotes(_ routes: [Route], currency: String, maxAge: MaxAge? = nil) -> [Result<Quote, any Error>]? {
        var hits: [(cache: any QuoteCache, quote: Quote, provider: String)] = []
        hits.reserveCapacity(routes.count)
        for route in routes {
            let choice = route.choices[0]
            guard let name = choice.fetcherName,
                  let cache = (try? container.resolve(PriceFetcher.self, name: name)) as? any QuoteCache,
                  let quote = cache.cachedQuote(for: QuoteRequest(asset: route.asset, currency: currency)) else { return nil }
            hits.append((cache, quote, choice.provider))
        }
        var judged: [Result<Quote, any Error>] = []
        judged.reserveCapacity(hits.count)
        for hit in hits {
            guard case .success(let quote) = judge(hit.quote, from: hit.provider, maxAge: maxAge) else { return nil }
            judged.append(.success(quote))
        }
        for hit in hits { hit.cache.countCacheHit() }
        return judged
    }
}
