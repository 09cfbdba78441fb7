import CoinbaseProviderLibrary
import ProviderABI
import Testing

struct CoinbaseSettingsTests {
    func settings(_ text: String) throws -> CoinbaseSettings {
        try CoinbaseSettings(JSONCursor(try JSONParser.parse(text), path: "providers.coinbase"))
    }

    @Test func defaultsPointAtTheRealAPI() throws {
        #expect(try settings("{}") == CoinbaseSettings())
        #expect(CoinbaseSettings().baseURL == "https://api.coinbase.com")
    }

    @Test func trailingSlashIsDropped() throws {
        #expect(try settings(#"{"baseURL": "http://127.0.0.1:8080/"}"#).baseURL == "http://127.0.0.1:8080")
    }

    @Test(arguments: [
        (#"{"baseUrl": "x"}"#, "invalid settings: providers.coinbase.baseUrl: unknown key (did you mean baseURL?); expected one of: baseURL, apiVersion"),
        (#"{"baseURL": "ftp://example.com"}"#, "invalid settings: providers.coinbase.baseURL: expected an http(s) URL without query or fragment, such as https://api.coinbase.com"),
        (#"{"baseURL": "https://x/?a=1"}"#, "invalid settings: providers.coinbase.baseURL: expected an http(s) URL without query or fragment, such as https://api.coinbase.com"),
        (#"{"baseURL": 3}"#, "invalid settings: providers.coinbase.baseURL: expected a string, found a number"),
        (#"{"apiVersion": "2024\r\nX: y"}"#, "invalid settings: providers.coinbase.apiVersion: must be a date such as 2024-01-01"),
    ])
    func badSettingsNameTheKey(text: String, message: String) {
        #expect(throws: ProviderError(.invalidSettings, message)) { try settings(text) }
    }
}
