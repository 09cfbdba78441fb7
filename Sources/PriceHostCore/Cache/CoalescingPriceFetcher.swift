import ConcurrencyHelpers
import FoundationEssentials
import ProviderABI

/// A provider's fetcher shared by many callers, as `serve` needs it: concurrent
/// requests for the same pair share one upstream fetch, and a success is kept
/// for `cacheSeconds` (only successes; a failure is asked again next time).
/// Every outcome is reported to a ``FetchObserver``, and every quote got (fetched, or
/// another instance's from the fleet) once. With a fleet (``QuoteSharing``),
/// the one fetch an instance would make asks the fleet's cache first, and only one
/// instance of the fleet fetches a pair at a time.
package final class CoalescingPriceFetcher: PriceFetcher, QuoteCache {
    /// One upstream fetch that callers wait on.
    private final class Flight: Sendable {
        private struct State {
            var result: Result<Quote, any Error>?
            var waiters: [CheckedContinuation<Quote, any Error>] = []
        }
        private let state = Lock(State())

        func wait() async throws -> Quote {
            try await withCheckedThrowingContinuation { continuation in
                let result: Result<Quote, any Error>? = state.withLock { state in
                    if state.result == nil { state.waiters.append(continuation) }
                    return state.result
                }
                if let result { continuation.resume(with: result) }
            }
        }

        func finish(_ result: Result<Quote, any Error>) {
            let waiters = state.withLock { state in
                state.result = result
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume(with: result) }
        }
    }

    private enum Step {
        case cached(Quote)
        case join(Flight)
        case lead(Flight)
    }

    private struct State {
        var cache: [QuoteRequest: (quote: Quote, expires: ContinuousClock.Instant)] = [:]
        var inFlight: [QuoteRequest: Flight] = [:]
    }

    private let provider: String
    private let base: any PriceFetcher
    private let lifetime: Duration
    private let observer: any FetchObserver
    private let shared: (any QuoteSharing)?
    private let sharedWaitLimit: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let state = Lock(State())

    /// Wraps `base`, the fetcher of `provider`; `cacheSeconds` 0 keeps nothing.
    /// - Parameters:
    ///   - shared: the fleet's cache and coalescing; used only when `cacheSeconds` is set
    ///     (the fleet hands quotes over through its cache).
    ///   - sharedWaitLimit: the longest this instance waits for another instance's fetch.
    ///   - observer: what is told of hits, misses, joins and fetches (`serve`'s metrics); by default nobody.
    ///   - now: the clock, for tests.
    package init(provider: String, base: any PriceFetcher, cacheSeconds: Int, observer: any FetchObserver = UnobservedFetches(),
                 shared: (any QuoteSharing)? = nil, sharedWaitLimit: Duration = .seconds(60),
                 now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.provider = provider
        self.base = base
        self.lifetime = .seconds(cacheSeconds)
        self.observer = observer
        self.shared = shared
        self.sharedWaitLimit = sharedWaitLimit
        self.now = now
    }

    package func fetchQuote(for request: QuoteRequest) async throws -> Quote {
        let now = now()
        let step: Step = state.withLock { state in
            if lifetime > .zero, let entry = state.cache[request] {
                if now < entry.expires { return .cached(entry.quote) }
                state.cache[request] = nil
            }
            if let flight = state.inFlight[request] { return .join(flight) }
            let flight = Flight()
            state.inFlight[request] = flight
            return .lead(flight)
        }
        switch step {
        case .cached(let quote):
            observer.cacheHit(provider: provider)
            return quote
        case .join(let flight):
            observer.coalesced(provider: provider)
            return try await flight.wait()
        case .lead(let flight):
            if lifetime > .zero { observer.cacheMiss(provider: provider) }
            let result: Result<Quote, any Error>
            var keep = lifetime
            var fetchedHere = true
            if let shared, lifetime > .zero {
                let fetched = Lock(false)
                let outcome = await shared.quote(for: request, provider: provider, lifetime: lifetime, waitLimit: sharedWaitLimit) {
                    fetched.withLock { $0 = true }
                    return await self.fetchUpstream(request)
                }
                result = outcome.result
                keep = outcome.keep
                fetchedHere = fetched.withLock { $0 }
            } else {
                result = await fetchUpstream(request)
            }
            let finished = self.now()
            state.withLock { state in
                state.inFlight[request] = nil
                if keep > .zero, case .success(let quote) = result { state.cache[request] = (quote, finished + keep) }
            }
            // Once per quote got: those answered from the cache or shared with joiners are the same one.
            if case .success(let quote) = result { observer.received(quote, fetchedHere: fetchedHere) }
            flight.finish(result)
            return try result.get()
        }
    }

    package func cachedQuote(for request: QuoteRequest) -> Quote? {
        guard lifetime > .zero else { return nil }
        let now = now()
        return state.withLock { state in state.cache[request].flatMap { now < $0.expires ? $0.quote : nil } }
    }

    package func countCacheHit() {
        observer.cacheHit(provider: provider)
    }

    /// One fetch from the plugin, reported to the observer.
    private func fetchUpstream(_ request: QuoteRequest) async -> Result<Quote, any Error> {
        let started = ContinuousClock.now
        let result: Result<Quote, any Error>
        do {
            result = .success(try await base.fetchQuote(for: request))
        } catch {
            result = .failure(error)
        }
        observer.fetched(provider: provider, succeeded: (try? result.get()) != nil, duration: started.duration(to: .now))
        return result
    }
}

/// Nobody listening: `fetch` and `watch`, which keep no metrics.
package struct UnobservedFetches: FetchObserver {
    package init() {}
    package func cacheHit(provider: String) {}
    package func cacheMiss(provider: String) {}
    package func coalesced(provider: String) {}
    package func fetched(provider: String, succeeded: Bool, duration: Duration) {}
}

/// What a ``CoalescingPriceFetcher`` reports: `serve`'s metrics.
package protocol FetchObserver: Sendable {
    /// A quote was answered from the cache.
    func cacheHit(provider: String)
    /// The cache had no fresh quote: an upstream fetch follows.
    func cacheMiss(provider: String)
    /// A request joined a fetch already in flight.
    func coalesced(provider: String)
    /// An upstream fetch ended.
    func fetched(provider: String, succeeded: Bool, duration: Duration)
    /// A quote was got, by a fetch or from the fleet: told once, not again for each cache hit or joined request.
    /// `fetchedHere`: this instance fetched it upstream (false: another instance of the fleet did).
    func received(_ quote: Quote, fetchedHere: Bool)
}

extension FetchObserver {
    /// By default quotes are not kept: only `serve` keeps them (its history, price gauges and store).
    package func received(_ quote: Quote, fetchedHere: Bool) {}
}
