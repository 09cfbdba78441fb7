import ConcurrencyHelpers
import Foundation
import Injection
@testable import PriceHost
@testable import PriceHostCore
import ProviderABI
import Testing

/// A fetcher that answers the pairs of its table, fails with `failures`' code for those, and answers
/// every other pair `not_found`; it counts what it was asked.
final class TableFetcher: PriceFetcher, Sendable {
    let provider: String
    let quotes: [String: Quote]
    let failures: [String: ProviderError.Code]
    private let asked = Lock<[String]>([])

    init(provider: String, quotes: [String: String], failures: [String: ProviderError.Code] = [:]) {
        self.provider = provider
        self.quotes = quotes.reduce(into: [:]) { table, entry in
            let codes = entry.key.split(separator: "-").map(String.init)
            table[entry.key] = Quote(asset: codes[0], currency: codes[1], amount: DecimalAmount.parse(entry.value)!,
                                     provider: provider, timestamp: Date(timeIntervalSince1970: 1_763_640_000))
        }
        self.failures = failures
    }

    var pairsAsked: [String] { asked.withLock { $0 } }

    func fetchQuote(for request: QuoteRequest) async throws -> Quote {
        asked.withLock { $0.append(request.pair) }
        if let quote = quotes[request.pair] { return quote }
        let code = failures[request.pair] ?? .notFound
        throw QuoteFailure(provider: provider, request: request, code: code, message: "\(code) for \(request.pair)")
    }
}

/// Deriving a pair no provider quotes, through the service every command and `/v1/prices` use.
struct CrossRateServiceTests {
    let coinbase: TableFetcher
    let bitstamp: TableFetcher

    init() {
        coinbase = TableFetcher(provider: "coinbase", quotes: ["ETH-USD": "3120.48", "ETH-USDT": "3121", "BTC-USD": "91234.56"],
                                failures: ["SLOW-EUR": .timeout])
        bitstamp = TableFetcher(provider: "bitstamp", quotes: ["EUR-USD": "1.0842", "GBP-USDT": "1.25", "USD-CHF": "0.8"],
                                failures: ["JPY-USD": .timeout])
    }

    /// A service over `coinbase` (the default) and `bitstamp` (for EUR, GBP, JPY and USD), with `extra` config members
    /// and `ethereum`, the settings of `assets.ETH`.
    func service(extra: String = "", ethereum: String = "{}") throws -> QuoteService {
        let text = """
            {"defaults": {"provider": "coinbase"},
             "assets": {"EUR": {"provider": "bitstamp"}, "GBP": {"provider": "bitstamp"}, "JPY": {"provider": "bitstamp"},
                        "USD": {"provider": "bitstamp"}, "ETH": \(ethereum)}\(extra)}
            """
        let config = try ConfigParser.parse(Array(text.utf8), path: "/etc/pricehost/plugins.json", environment: [:])
        let container = CompositionRoot.makeContainer(config: config, diagnostics: Diagnostics(sink: { _ in }))
        let plugins = [coinbase, bitstamp].map { fetcher in
            LoadedPlugin(path: "/lib/lib\(fetcher.provider).so", name: fetcher.provider, version: "1.0.0", abiVersion: "1.0",
                         fetchers: [PluginFetcher(provider: fetcher.provider, asset: nil, fetcher: fetcher)])
        }
        return QuoteService(container: container, catalog: QuoteServiceTests.catalog(of: plugins, config: config, container: container))
    }

    func fetch(_ asset: String, _ currency: String, from service: QuoteService, providers: [String]? = nil) async throws -> Result<Quote, any Error> {
        await service.fetch([try service.route(asset: asset, explicitProviders: providers)], currency: currency)[0]
    }

    @Test func aPairNoProviderQuotesIsTheFirstLegOverTheSecond() async throws {
        let quote = try await fetch("ETH", "EUR", from: try service()).get()
        #expect(DecimalAmount.format(quote.amount) == "2878.14056447149972")
        #expect(quote.provider == "cross")
        #expect(quote.derivedFrom?.map { "\($0.asset)-\($0.currency) \($0.provider) \(DecimalAmount.format($0.amount))" }
            == ["ETH-USD coinbase 3120.48", "EUR-USD bitstamp 1.0842"])
        #expect(coinbase.pairsAsked.sorted() == ["ETH-EUR", "ETH-USD"])
        #expect(bitstamp.pairsAsked == ["EUR-USD"])
    }

    @Test func theClientsMaxAgeHoldsForEachLegAndTheDerivedQuoteIsJudgedLikeAnyOther() async throws {
        let service = try service()
        let route = try service.route(asset: "ETH", explicitProviders: nil)
        let fresh = try await service.fetch([route], currency: "EUR")[0].get()
        #expect(fresh.status == .live)
        // The legs are stamped a year before now: a day's limit refuses them, and the bridge says why.
        let limit = MaxAge(milliseconds: 86_400_000, name: "--max-age")
        let refused = await service.fetch([route], currency: "EUR", maxAge: limit)[0]
        guard case .failure(let failure as QuoteFailure) = refused else {
            Issue.record("a derived quote from legs older than the limit was given: \(refused)")
            return
        }
        #expect(failure.message.contains("no cross rate: via USD, ETH-USD failed (coinbase: quote for ETH-USD is "), "\(failure)")
        #expect(failure.message.contains("; --max-age is 86400 s)"), "\(failure)")
    }

    @Test func aDirectQuoteWins() async throws {
        let quote = try await fetch("ETH", "USD", from: try service(extra: #", "crossVia": ["USDT"]"#)).get()
        #expect(quote.provider == "coinbase")
        #expect(quote.derivedFrom == nil)
        #expect(coinbase.pairsAsked == ["ETH-USD"])
    }

    @Test func whenCurrencyBridgeIsMissingBridgeCurrencyIsMultiplied() async throws {
        let quote = try await fetch("ETH", "CHF", from: try service()).get()
        #expect(DecimalAmount.format(quote.amount) == "2496.384")
        #expect(quote.derivedFrom?.map { "\($0.asset)-\($0.currency)" } == ["ETH-USD", "USD-CHF"])
        // CHF has no asset entry: CHF-USD is asked of the default provider; USD-CHF of USD's.
        #expect(coinbase.pairsAsked.sorted() == ["CHF-USD", "ETH-CHF", "ETH-USD"])
        #expect(bitstamp.pairsAsked == ["USD-CHF"])
    }

    @Test func bridgesAreTriedInOrder() async throws {
        let quote = try await fetch("ETH", "GBP", from: try service(extra: #", "crossVia": ["USD", "USDT"]"#)).get()
        #expect(quote.derivedFrom?.map { "\($0.asset)-\($0.currency)" } == ["ETH-USDT", "GBP-USDT"])
        #expect(DecimalAmount.format(quote.amount) == "2496.8")
    }

    @Test func theAssetAsBridgeIsTheInverseOfOneLeg() async throws {
        let quote = try await fetch("USD", "EUR", from: try service()).get()
        #expect(DecimalAmount.format(quote.amount) == "0.922339051835454713")
        #expect(quote.derivedFrom?.map { "\($0.asset)-\($0.currency)" } == ["EUR-USD"])
    }

    @Test func theCurrencyAsBridgeIsNotTriedSoTheErrorIsTheUsualOne() async throws {
        let result = try await fetch("DOGE", "USD", from: try service())
        #expect(throws: QuoteFailure(provider: "coinbase", request: QuoteRequest(asset: "DOGE", currency: "USD"),
                                     code: .notFound, message: "not_found for DOGE-USD")) { try result.get() }
        #expect(coinbase.pairsAsked == ["DOGE-USD"])
    }

    @Test func anUnderivablePairNamesEachBridgeAndWhatItLacked() async throws {
        let result = try await fetch("DOGE", "EUR", from: try service(extra: #", "crossVia": ["USD", "USDT"]"#))
        #expect(throws: QuoteFailure(provider: "coinbase", request: QuoteRequest(asset: "DOGE", currency: "EUR"), code: .notFound,
                                     message: "not_found for DOGE-EUR; no cross rate: via USD, missing DOGE-USD (coinbase); "
                                        + "via USDT, missing DOGE-USDT (coinbase) and EUR-USDT (bitstamp)")) { try result.get() }
    }

    @Test func bothShapesOfTheSecondLegAreNamedWhenMissing() async throws {
        let result = try await fetch("BTC", "GBP", from: try service())
        #expect(throws: QuoteFailure(provider: "coinbase", request: QuoteRequest(asset: "BTC", currency: "GBP"), code: .notFound,
                                     message: "not_found for BTC-GBP; no cross rate: via USD, missing GBP-USD (bitstamp) and USD-GBP (bitstamp)"))
        { try result.get() }
    }

    @Test func aLegThatFailsOtherwiseIsNamedWithItsReasonAndNotReplaced() async throws {
        let result = try await fetch("ETH", "JPY", from: try service())
        #expect(throws: QuoteFailure(provider: "coinbase", request: QuoteRequest(asset: "ETH", currency: "JPY"), code: .notFound,
                                     message: "not_found for ETH-JPY; no cross rate: via USD, JPY-USD failed (bitstamp: timeout for JPY-USD)"))
        { try result.get() }
        #expect(bitstamp.pairsAsked == ["JPY-USD"])
    }

    @Test func anOutageOfTheDirectProviderIsNotHiddenByADerivedPrice() async throws {
        let result = try await fetch("SLOW", "EUR", from: try service())
        #expect(throws: QuoteFailure(provider: "coinbase", request: QuoteRequest(asset: "SLOW", currency: "EUR"),
                                     code: .timeout, message: "timeout for SLOW-EUR")) { try result.get() }
        #expect(coinbase.pairsAsked == ["SLOW-EUR"])
    }

    @Test func namedProvidersAnswerEveryLeg() async throws {
        let result = try await fetch("ETH", "EUR", from: try service(), providers: ["coinbase"])
        #expect(throws: QuoteFailure(provider: "coinbase", request: QuoteRequest(asset: "ETH", currency: "EUR"), code: .notFound,
                                     message: "not_found for ETH-EUR; no cross rate: via USD, missing EUR-USD (coinbase) and USD-EUR (coinbase)"))
        { try result.get() }
        #expect(bitstamp.pairsAsked.isEmpty)
    }

    @Test func anEmptyCrossViaDerivesNothing() async throws {
        let result = try await fetch("ETH", "EUR", from: try service(extra: #", "crossVia": []"#))
        #expect(throws: QuoteFailure(provider: "coinbase", request: QuoteRequest(asset: "ETH", currency: "EUR"),
                                     code: .notFound, message: "not_found for ETH-EUR")) { try result.get() }
    }

    @Test func theDerivedPairIsCheckedAgainstTheAssetsBounds() async throws {
        let result = try await fetch("ETH", "EUR", from: try service(ethereum: #"{"bounds": {"min": "3000"}}"#))
        let failure = #expect(throws: QuoteFailure.self) { try result.get() }
        #expect(failure?.description == "cross: price 2878.14056447149972 for ETH-EUR is below assets.ETH.bounds.min (3000)")
    }
}
