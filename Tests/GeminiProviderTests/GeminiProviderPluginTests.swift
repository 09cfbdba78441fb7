import Foundation
import GeminiProviderLibrary
import PriceHostTesting
import ProviderABI
import Testing

struct GeminiProviderPluginTests {
    @Test func asksTheLowerCaseSymbolsTicker() async throws {
        let url = "http://127.0.0.1:9/v1/pubticker/ethusd"
        let http = SimulatedHTTPClient([url: HTTPResponse(status: 200, body: body(#"{"last": "3120.5"}"#))])
        let settings = try GeminiSettings(JSONCursor(JSONParser.parse(#"{"baseURL": "http://127.0.0.1:9/"}"#)))
        let quote = try await GeminiProviderPlugin.makeFetcher(settings: settings, http: http).fetchQuote(for: QuoteRequest(asset: "ETH", currency: "USD"))
        #expect(quote.amount == Decimal(string: "3120.5"))
        #expect(quote.provider == "gemini")
        #expect(http.received == [HTTPRequest(url: url, headers: [HTTPHeader("Accept", "application/json")])])
    }

    @Test func settingsAreReadStrictly() throws {
        #expect(GeminiSettings().baseURL == "https://api.gemini.com")
        #expect(throws: ProviderError(.invalidSettings, "invalid settings: providers.gemini.apiKey: unknown key; expected one of: baseURL")) {
            try GeminiSettings(JSONCursor(JSONParser.parse(#"{"apiKey": "x"}"#), path: "providers.gemini"))
        }
    }
}
