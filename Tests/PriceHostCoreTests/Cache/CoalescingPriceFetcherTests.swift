import ConcurrencyHelpers
import Foundation
@testable import PriceHostCore
import ProviderABI
import Testing

/// `serve`'s fetcher wrapper: concurrent requests share one fetch; a success is kept for `cacheSeconds`.
struct CoalescingPriceFetcherTests {
    /// Answers after the test opens its gate, counting calls.
    final class GatedFetcher: PriceFetcher {
        let calls = Lock(0)
        let gate = Lock<[CheckedContinuation<Void, Never>]?>([])
        let failing: Bool

        init(failing: Bool = false) { self.failing = failing }

        func fetchQuote(for request: QuoteRequest) async throws -> Quote {
            calls.withLock { $0 += 1 }
            await withCheckedContinuation { continuation in
                let open = gate.withLock { waiting -> Bool in
                    guard waiting != nil else { return true }
                    waiting?.append(continuation)
                    return false
                }
                if open { continuation.resume() }
            }
            if failing { throw ProviderError(.unavailable, "down") }
            return Quote(asset: request.asset, currency: request.currency, amount: 7, provider: "gated", timestamp: Date(timeIntervalSince1970: 0))
        }

        func open() {
            for waiter in gate.withLock({ waiting in defer { waiting = nil }; return waiting ?? [] }) { waiter.resume() }
        }
    }

    /// Counts what the fetcher reports.
    final class Counts: FetchObserver {
        let values = Lock<[String: Int]>([:])
        func cacheHit(provider: String) { values.withLock { $0["hit", default: 0] += 1 } }
        func cacheMiss(provider: String) { values.withLock { $0["miss", default: 0] += 1 } }
        func coalesced(provider: String) { values.withLock { $0["coalesced", default: 0] += 1 } }
        func fetched(provider: String, succeeded: Bool, duration: Duration) { values.withLock { $0[succeeded ? "success" : "failure", default: 0] += 1 } }
        func received(_ quote: Quote, fetchedHere: Bool) {
            values.withLock { values in
                values["received \(quote.asset)-\(quote.currency)", default: 0] += 1
                values[fetchedHere ? "fetched here" : "fetched by another instance", default: 0] += 1
            }
        }
        subscript(key: String) -> Int { values.withLock { $0[key, default: 0] } }
    }

    let btc = QuoteRequest(asset: "BTC", currency: "USD")

    /// Runs `count` fetches at once, opening the gate once all but the leader have joined.
    func concurrentFetches(_ count: Int, through fetcher: CoalescingPriceFetcher, base: GatedFetcher, counts: Counts) async -> [Result<Quote, any Error>] {
        await withTaskGroup(of: Result<Quote, any Error>.self) { group in
            for _ in 0..<count {
                group.addTask { [btc] in
                    do { return .success(try await fetcher.fetchQuote(for: btc)) } catch { return .failure(error) }
                }
            }
            // Bounded: at most 5 s for the others to join the flight.
            for _ in 0..<500 where counts["coalesced"] < count - 1 { try? await Task.sleep(for: .milliseconds(10)) }
            base.open()
            var results: [Result<Quote, any Error>] = []
            for await result in group { results.append(result) }
            return results
        }
    }

    /// The fleet: another instance's quote from Redis, or this instance's fetch when the fleet says so.
    struct FakeFleet: QuoteSharing {
        /// true: the fleet has another instance's quote; false: this instance is the one to fetch.
        let another: Bool
        func quote(for request: QuoteRequest, provider: String, lifetime: Duration, waitLimit: Duration,
                   fetch: @Sendable () async -> Result<Quote, any Error>) async -> SharedQuoteOutcome {
            guard another else { return SharedQuoteOutcome(result: await fetch(), keep: lifetime) }
            let quote = Quote(asset: request.asset, currency: request.currency, amount: 8, provider: provider, timestamp: Date(timeIntervalSince1970: 0))
            return SharedQuoteOutcome(result: .success(quote), keep: lifetime)
        }
    }

    /// What a store the fleet shares needs: whether the quote told was fetched here (written here) or by another instance.
    @Test func aQuoteIsToldAsFetchedHereOnlyWhenThisInstanceFetchedIt() async throws {
        for another in [true, false] {
            let base = GatedFetcher(), counts = Counts()
            base.gate.withLock { $0 = nil }
            let fetcher = CoalescingPriceFetcher(provider: "gated", base: base, cacheSeconds: 5, observer: counts, shared: FakeFleet(another: another))
            let quote = try await fetcher.fetchQuote(for: btc)
            #expect(quote.amount == (another ? 8 : 7))
            #expect(counts["fetched here"] == (another ? 0 : 1) && counts["fetched by another instance"] == (another ? 1 : 0))
            #expect(base.calls.withLock { $0 } == (another ? 0 : 1))
        }
    }

    @Test func concurrentRequestsShareOneFetch() async {
        let base = GatedFetcher(), counts = Counts()
        let fetcher = CoalescingPriceFetcher(provider: "gated", base: base, cacheSeconds: 0, observer: counts)
        let results = await concurrentFetches(50, through: fetcher, base: base, counts: counts)
        #expect(results.allSatisfy { (try? $0.get())?.amount == 7 })
        #expect(base.calls.withLock { $0 } == 1)
        #expect(counts["coalesced"] == 49)
        #expect(counts["success"] == 1)
        // The quote the 50 share is told once (serve's history keeps it once).
        #expect(counts["received BTC-USD"] == 1)
        // Without a cache, the next request fetches again.
        _ = try? await fetcher.fetchQuote(for: btc)
        #expect(base.calls.withLock { $0 } == 2)
        #expect(counts["received BTC-USD"] == 2)
    }

    @Test func aSharedFailureReachesEveryoneAndIsNotKept() async {
        let base = GatedFetcher(failing: true), counts = Counts()
        let fetcher = CoalescingPriceFetcher(provider: "gated", base: base, cacheSeconds: 600, observer: counts)
        let results = await concurrentFetches(10, through: fetcher, base: base, counts: counts)
        #expect(results.allSatisfy { (try? $0.get()) == nil })
        #expect(counts["failure"] == 1)
        #expect(counts["received BTC-USD"] == 0)
        _ = try? await fetcher.fetchQuote(for: btc)
        #expect(base.calls.withLock { $0 } == 2)
    }

    @Test func aSuccessIsKeptForCacheSeconds() async throws {
        let base = GatedFetcher(), counts = Counts()
        base.open()
        let fetcher = CoalescingPriceFetcher(provider: "gated", base: base, cacheSeconds: 600, observer: counts)
        for _ in 0..<3 { _ = try await fetcher.fetchQuote(for: btc) }
        _ = try await fetcher.fetchQuote(for: QuoteRequest(asset: "BTC", currency: "EUR"))
        #expect(base.calls.withLock { $0 } == 2)
        #expect(counts["hit"] == 2)
        #expect(counts["miss"] == 2)
        // A cache hit is the quote already told of.
        #expect(counts["received BTC-USD"] == 1 && counts["received BTC-EUR"] == 1)
    }
}
