import BitstampProviderLibrary
import Foundation
import PriceHostTesting
import ProviderABI
import Testing

struct BitstampProviderPluginTests {
    @Test func asksTheLowerCasePairsTicker() async throws {
        let url = "https://www.bitstamp.net/api/v2/ticker/ethusd/"
        let http = SimulatedHTTPClient([url: HTTPResponse(status: 200, body: body(#"{"last": "3120.5", "timestamp": "1700000000"}"#))])
        let quote = try await BitstampProviderPlugin.makeFetcher(settings: BitstampSettings(), http: http).fetchQuote(for: QuoteRequest(asset: "ETH", currency: "USD"))
        #expect(quote.amount == Decimal(string: "3120.5"))
        #expect(quote.provider == "bitstamp")
        #expect(http.received == [HTTPRequest(url: url, headers: [HTTPHeader("Accept", "application/json")])])
    }
}
