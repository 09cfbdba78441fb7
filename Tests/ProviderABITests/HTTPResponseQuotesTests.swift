import Foundation
import PriceHostTesting
import ProviderABI
import Testing

/// What ProviderABI gives every market plugin for reading answers.
struct HTTPResponseQuotesTests {
    static let request = QuoteRequest(asset: "BTC", currency: "USD")

    @Test(arguments: [
        (404, false, ProviderError.Code.notFound), (400, false, .invalidRequest), (401, false, .invalidRequest), (418, false, .invalidRequest),
        (429, false, .unavailable), (500, false, .unavailable), (503, false, .unavailable), (302, false, .invalidRequest),
        (400, true, .notFound), (404, true, .notFound), (429, true, .unavailable), (503, true, .unavailable), (302, true, .invalidRequest),
    ])
    func statusDecidesTheCodeAndTheAPIsUnknownPairCountsOnlyForA4xx(status: Int, unknownPair: Bool, code: ProviderError.Code) {
        #expect(ProviderError.Code(httpStatus: status, unknownPair: unknownPair) == code)
    }

    @Test func apiErrorPutsTheAPIsWordsFirstOnOneLine() {
        let response = HTTPResponse(status: 429, headers: [HTTPHeader("Retry-After", "30")])
        #expect(ProviderError.apiError(.unavailable, "RateLimited (slow\r\ndown)", response: response, for: Self.request)
            == ProviderError(.unavailable, "RateLimited (slow  down); HTTP 429 for BTC-USD; Retry-After: 30"))
        #expect(ProviderError.apiError(.notFound, "gone", response: HTTPResponse(status: 404), for: Self.request)
            == ProviderError(.notFound, "gone; HTTP 404 for BTC-USD"))
    }

    @Test func bodyExcerptIsTheFirst120BytesOnOneLine() {
        #expect(HTTPResponse(status: 503).bodyExcerpt == "no body")
        let long = HTTPResponse(status: 503, body: body("<html>\n" + String(repeating: "x", count: 300)))
        #expect(long.bodyExcerpt == "body: <html> " + String(repeating: "x", count: 113))
    }

    @Test func readJSONPassesTheReadersOwnErrorsThrough() {
        let response = HTTPResponse(status: 200, body: body("{}"))
        #expect(throws: ProviderError(.notFound, "none")) {
            try response.readJSON(for: Self.request) { _ -> Int in throw ProviderError(.notFound, "none") }
        }
        #expect(throws: ProviderError(.invalidResponse, "200 with an unexpected shape: last: missing (BTC-USD)")) {
            try response.readJSON(for: Self.request) { try $0.member("last").string() }
        }
    }

    @Test func priceIsAStringUnlessANumberIsAccepted() throws {
        let root = JSONCursor(try JSONParser.parse(#"{"text": "1.5", "number": 2.5e-3}"#))
        #expect(try root.member("text").positivePrice() == Decimal(string: "1.5"))
        #expect(try root.member("number").positivePrice(acceptsNumber: true) == Decimal(string: "0.0025"))
        #expect(throws: JSONShapeError(path: "number", reason: "expected a string, found a number")) { try root.member("number").positivePrice() }
        #expect(throws: JSONShapeError(path: "text", reason: "expected a number, found a string")) {
            try root.member("text").positivePrice(acceptsNumber: true)
        }
    }

    @Test func onlyBaseURLRefusesAnyOtherKey() throws {
        let settings = { (text: String) in JSONCursor(try JSONParser.parse(text), path: "providers.x") }
        #expect(try settings("{}").onlyBaseURL(default: "https://x.example") == "https://x.example")
        #expect(try settings(#"{"baseURL": "http://127.0.0.1:8/"}"#).onlyBaseURL(default: "https://x.example") == "http://127.0.0.1:8")
        #expect(throws: ProviderError(.invalidSettings, "invalid settings: providers.x.key: unknown key; expected one of: baseURL")) {
            try settings(#"{"key": 1}"#).onlyBaseURL(default: "https://x.example")
        }
    }
}
