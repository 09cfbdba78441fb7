import CoinGeckoProviderLibrary
import Foundation
import PriceHostTesting
import ProviderABI
import Testing

struct CoinGeckoProviderPluginTests {
    static let url = "https://api.coingecko.com/api/v3/simple/price?ids=ethereum&vs_currencies=eur&include_last_updated_at=true"

    @Test func asksByIdAndSendsTheKeyAsADemoKeyHeader() async throws {
        let http = SimulatedHTTPClient([Self.url: HTTPResponse(status: 200, body: body(#"{"ethereum": {"eur": 2870.1}}"#))])
        var settings = CoinGeckoSettings()
        settings.apiKey = "CG-abc123"
        let quote = try await CoinGeckoProviderPlugin.makeFetcher(settings: settings, http: http).fetchQuote(for: QuoteRequest(asset: "ETH", currency: "EUR"))
        #expect(quote.amount == Decimal(string: "2870.1"))
        #expect(http.received == [HTTPRequest(url: Self.url, headers: [HTTPHeader("Accept", "application/json"), HTTPHeader("x-cg-demo-api-key", "CG-abc123")])])
    }

    @Test func withoutAKeyNoKeyHeaderIsSent() throws {
        let request = try CoinGeckoProviderPlugin.makeFetcher(settings: CoinGeckoSettings(), http: SimulatedHTTPClient([:]))
            .request(for: QuoteRequest(asset: "ETH", currency: "EUR"))
        #expect(request == HTTPRequest(url: Self.url, headers: [HTTPHeader("Accept", "application/json")]))
    }

    @Test func assetWithoutAnIdCostsNoRequest() async {
        let http = SimulatedHTTPClient([:])
        await #expect(throws: ProviderError.self) {
            try await CoinGeckoProviderPlugin.makeFetcher(settings: CoinGeckoSettings(), http: http).fetchQuote(for: QuoteRequest(asset: "ZZZ9", currency: "USD"))
        }
        #expect(http.received.isEmpty)
    }
}
