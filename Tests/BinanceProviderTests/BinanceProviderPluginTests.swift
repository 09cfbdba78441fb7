import BinanceProviderLibrary
import Foundation
import PriceHostTesting
import ProviderABI
import Testing

struct BinanceProviderPluginTests {
    @Test func asksTheAliasedSymbol() async throws {
        let url = "https://api.binance.com/api/v3/ticker/price?symbol=ETHUSDT"
        let http = SimulatedHTTPClient([url: HTTPResponse(status: 200, body: body(#"{"symbol": "ETHUSDT", "price": "3120.50000000"}"#))])
        var settings = BinanceSettings()
        settings.currencyAliases = ["USD": "USDT"]
        let quote = try await BinanceProviderPlugin.makeFetcher(settings: settings, http: http).fetchQuote(for: QuoteRequest(asset: "ETH", currency: "USD"))
        #expect(quote.amount == Decimal(string: "3120.5"))
        #expect(quote.provider == "binance")
        #expect(http.received == [HTTPRequest(url: url, headers: [HTTPHeader("Accept", "application/json")])])
    }

    @Test func withBidAskTheBookIsAskedBesideThePrice() async throws {
        let price = "https://api.binance.com/api/v3/ticker/price?symbol=ETHUSDT"
        let book = "https://api.binance.com/api/v3/ticker/bookTicker?symbol=ETHUSDT"
        let http = SimulatedHTTPClient([
            price: HTTPResponse(status: 200, body: body(#"{"symbol":"ETHUSDT","price":"3120.50000000"}"#)),
            book: HTTPResponse(status: 200, body: body(#"{"symbol":"ETHUSDT","bidPrice":"3120.49000000","bidQty":"12.30000000","askPrice":"3120.50000000","askQty":"0.87310000"}"#)),
        ])
        var settings = BinanceSettings()
        settings.currencyAliases = ["USD": "USDT"]
        settings.bidAsk = true
        let quote = try await BinanceProviderPlugin.makeFetcher(settings: settings, http: http).fetchQuote(for: QuoteRequest(asset: "ETH", currency: "USD"))
        #expect(quote.amount == Decimal(string: "3120.5") && quote.bid == Decimal(string: "3120.49") && quote.ask == Decimal(string: "3120.5"))
        #expect(Set(http.received.map(\.url)) == [price, book])
    }

    @Test func withoutBidAskOnlyThePriceIsAsked() async throws {
        let price = "https://api.binance.com/api/v3/ticker/price?symbol=ETHEUR"
        let http = SimulatedHTTPClient([price: HTTPResponse(status: 200, body: body(#"{"symbol":"ETHEUR","price":"3000.10000000"}"#))])
        let quote = try await BinanceProviderPlugin.makeFetcher(settings: BinanceSettings(), http: http).fetchQuote(for: QuoteRequest(asset: "ETH", currency: "EUR"))
        #expect(quote.bid == nil && quote.ask == nil)
        #expect(http.received.map(\.url) == [price])
    }

    @Test func aFailedBookFailsTheQuote() async throws {
        let price = "https://api.binance.com/api/v3/ticker/price?symbol=ETHEUR"
        let book = "https://api.binance.com/api/v3/ticker/bookTicker?symbol=ETHEUR"
        let http = SimulatedHTTPClient([
            price: HTTPResponse(status: 200, body: body(#"{"symbol":"ETHEUR","price":"3000.10000000"}"#)),
            book: HTTPResponse(status: 200, body: body(#"{"symbol":"ETHEUR","bidPrice":"3000,09","askPrice":"3000.10"}"#)),
        ])
        var settings = BinanceSettings()
        settings.bidAsk = true
        await #expect(throws: ProviderError(.invalidResponse, #"200 with an unexpected shape: bidPrice: not a decimal number of zero or more: "3000,09" (ETH-EUR)"#)) {
            try await BinanceProviderPlugin.makeFetcher(settings: settings, http: http).fetchQuote(for: QuoteRequest(asset: "ETH", currency: "EUR"))
        }
    }

    @Test func usdWithoutAnAliasCostsNoRequest() async {
        let http = SimulatedHTTPClient([:])
        await #expect(throws: ProviderError.self) {
            try await BinanceProviderPlugin.makeFetcher(settings: BinanceSettings(), http: http).fetchQuote(for: QuoteRequest(asset: "ETH", currency: "USD"))
        }
        #expect(http.received.isEmpty)
    }
}
