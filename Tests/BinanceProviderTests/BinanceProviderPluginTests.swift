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

    @Test func usdWithoutAnAliasCostsNoRequest() async {
        let http = SimulatedHTTPClient([:])
        await #expect(throws: ProviderError.self) {
            try await BinanceProviderPlugin.makeFetcher(settings: BinanceSettings(), http: http).fetchQuote(for: QuoteRequest(asset: "ETH", currency: "USD"))
        }
        #expect(http.received.isEmpty)
    }
}
