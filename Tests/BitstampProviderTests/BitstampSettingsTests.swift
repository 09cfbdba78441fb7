import BitstampProviderLibrary
import ProviderABI
import Testing

struct BitstampSettingsTests {
    func settings(_ text: String) throws -> BitstampSettings {
        try BitstampSettings(JSONCursor(try JSONParser.parse(text), path: "providers.bitstamp"))
    }

    @Test func defaultsPointAtTheRealAPI() throws {
        #expect(try settings("{}").baseURL == "https://www.bitstamp.net")
        #expect(try settings(#"{"baseURL": "http://127.0.0.1:8080/"}"#).baseURL == "http://127.0.0.1:8080")
    }

    @Test(arguments: [
        (#"{"baseUrl": "x"}"#, "invalid settings: providers.bitstamp.baseUrl: unknown key (did you mean baseURL?); expected one of: baseURL"),
        (#"{"baseURL": "ftp://x"}"#, "invalid settings: providers.bitstamp.baseURL: expected an http(s) URL without query or fragment, such as https://www.bitstamp.net"),
        (#"{"baseURL": 3}"#, "invalid settings: providers.bitstamp.baseURL: expected a string, found a number"),
    ])
    func badSettingsNameTheKey(text: String, message: String) {
        #expect(throws: ProviderError(.invalidSettings, message)) { try settings(text) }
    }
}
