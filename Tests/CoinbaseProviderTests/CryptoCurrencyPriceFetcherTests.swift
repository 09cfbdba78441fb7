import CoinbaseProviderLibrary
import Foundation
import PriceHostTesting
import Injection
import ProviderABI
import Testing

struct CryptoCurrencyPriceFetcherTests {
    static let btc = "https://api.coinbase.com/v2/prices/BTC-USD/spot"
    static let eth = "https://api.coinbase.com/v2/prices/ETH-USD/spot"
    let http = SimulatedHTTPClient([
        btc: HTTPResponse(status: 200, body: body(#"{"data":{"base":"BTC","currency":"USD","amount":"15840.01"}}"#)),
        eth: HTTPResponse(status: 200, body: body(#"{"data":{"base":"ETH","currency":"USD","amount":"3120.5"}}"#)),
    ])

    @Test func sendsTheSpotRequestWithTheVersionHeader() async throws {
        let fetcher = CryptoCurrencyPriceFetcher(asset: nil, settings: CoinbaseSettings(), http: http)
        let quote = try await fetcher.fetchQuote(for: QuoteRequest(asset: "BTC", currency: "USD"))
        #expect(quote.amount == Decimal(string: "15840.01"))
        #expect(quote.provider == "coinbase")
        #expect(http.received == [HTTPRequest(url: Self.btc, headers: [HTTPHeader("CB-VERSION", "2024-01-01"), HTTPHeader("Accept", "application/json")])])
    }

    @Test func dedicatedInstanceRefusesAnotherAsset() async {
        let bitcoin = CryptoCurrencyPriceFetcher(asset: "BTC", settings: CoinbaseSettings(), http: http)
        await #expect(throws: ProviderError(.invalidRequest, "this fetcher serves BTC, not ETH")) {
            try await bitcoin.fetchQuote(for: QuoteRequest(asset: "ETH", currency: "USD"))
        }
    }

    @Test func pluginRegistersAGeneralFetcherAndBitcoinAndEthereumByName() {
        let registrations = CoinbaseProviderPlugin.makeFetchers(settings: CoinbaseSettings(), http: http)
        #expect(registrations.map(\.asset) == [nil, "BTC", "ETH"])
        #expect(registrations.allSatisfy { $0.fetcher is CryptoCurrencyPriceFetcher })
    }

    /// The seeds' swap: the Ethereum fetcher is replaced in a child container;
    /// Bitcoin, and the parent, are untouched.
    @Test func childContainerReplacesTheEthereumFetcherAndLeavesBitcoin() async throws {
        let parent = Container()
        parent.register(HTTPClient.self, scope: .singleton) { _ in self.http }
        for asset in CoinbaseProviderPlugin.namedAssets {
            parent.register(PriceFetcher.self, name: "coinbase/\(asset)") { resolver in
                CryptoCurrencyPriceFetcher(asset: asset, settings: CoinbaseSettings(), http: try resolver.resolve(HTTPClient.self))
            }
        }
        let child = Container(parent: parent)
        child.register(PriceFetcher.self, name: "coinbase/ETH") { _ in FixedEthereum() }

        let request = QuoteRequest(asset: "ETH", currency: "USD")
        #expect(try await child.resolve(PriceFetcher.self, name: "coinbase/ETH").fetchQuote(for: request).amount == 1)
        #expect(try await parent.resolve(PriceFetcher.self, name: "coinbase/ETH").fetchQuote(for: request).amount == Decimal(string: "3120.5"))
        let bitcoin = try await child.resolve(PriceFetcher.self, name: "coinbase/BTC").fetchQuote(for: QuoteRequest(asset: "BTC", currency: "USD"))
        #expect(bitcoin.amount == Decimal(string: "15840.01"))
        #expect(http.received.map(\.url) == [Self.eth, Self.btc])
    }
}

struct FixedEthereum: PriceFetcher {
    func fetchQuote(for request: QuoteRequest) async throws -> Quote {
        Quote(asset: request.asset, currency: request.currency, amount: 1, provider: "fixed", timestamp: Date(timeIntervalSince1970: 0))
    }
}
