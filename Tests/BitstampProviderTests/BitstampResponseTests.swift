import BitstampProviderLibrary
import Foundation
import PriceHostTesting
import ProviderABI
import Testing

struct BitstampResponseTests {
    static let btc = QuoteRequest(asset: "BTC", currency: "USD")
    static let receipt = Date(timeIntervalSince1970: 1_800_000_000)

    func quote(_ status: Int, _ text: String, headers: [HTTPHeader] = []) throws -> Quote {
        try BitstampResponse.quote(from: HTTPResponse(status: status, headers: headers, body: body(text)), for: Self.btc,
                                   provider: "bitstamp", now: Self.receipt)
    }

    @Test func lastIsTheExactAmountAndTimestampIsBitstampsSeconds() throws {
        let quote = try quote(200, #"{"timestamp": "1700000000", "open": "1", "last": "37000.123456789012345678", "bid": "2"}"#)
        #expect(quote == Quote(asset: "BTC", currency: "USD", amount: Decimal(string: "37000.123456789012345678")!,
                               provider: "bitstamp", timestamp: Date(timeIntervalSince1970: 1_700_000_000)))
    }

    @Test func withoutATimestampTheTimeOfReceiptIsUsed() throws {
        #expect(try quote(200, #"{"last": "1.5"}"#).timestamp == Self.receipt)
    }

    @Test(arguments: [
        (200, "", "200 with an empty body (BTC-USD)"),
        (200, #"{"last": "1"#, "200 with a body that is not JSON: line 1, column 12: unterminated string (BTC-USD)"),
        (200, #"{"last": 37000.12}"#, "200 with an unexpected shape: last: expected a string, found a number (BTC-USD)"),
        (200, #"{"timestamp": "1700000000"}"#, "200 with an unexpected shape: last: missing (BTC-USD)"),
        (200, #"{"last": "1,5"}"#, #"200 with an unexpected shape: last: not a decimal number: "1,5" (BTC-USD)"#),
        (200, #"{"last": "0"}"#, "200 with an unexpected shape: last: 0 is not a positive price (BTC-USD)"),
        (200, #"{"last": "1", "timestamp": "soon"}"#, #"200 with an unexpected shape: timestamp: not a time in seconds since 1970: "soon" (BTC-USD)"#),
    ])
    func unusableAnswerIsInvalidResponse(status: Int, text: String, message: String) {
        #expect(throws: ProviderError(.invalidResponse, message)) { try quote(status, text) }
    }

    @Test func unknownPairIsNotFound() {
        #expect(throws: ProviderError(.notFound, "no pair btcusd at Bitstamp (body: <html>Not Found</html>); HTTP 404 for BTC-USD")) {
            try quote(404, "<html>Not Found</html>")
        }
    }

    @Test func bitstampsOwnErrorIsPassedOn() {
        #expect(throws: ProviderError(.unavailable, "API0005 Rate limit exceeded; HTTP 429 for BTC-USD; Retry-After: 10")) {
            try quote(429, #"{"status": "error", "reason": "Rate limit exceeded", "code": "API0005"}"#, headers: [HTTPHeader("Retry-After", "10")])
        }
        #expect(throws: ProviderError(.invalidRequest, "pair: Invalid pair.; HTTP 400 for BTC-USD")) {
            try quote(400, #"{"status": "error", "reason": {"pair": ["Invalid pair."]}}"#)
        }
    }

    @Test func maintenanceIsUnavailable() {
        #expect(throws: ProviderError(.unavailable, "body: <html>\u{20}\u{20}Maintenance</html>; HTTP 503 for BTC-USD")) {
            try quote(503, "<html>\r\nMaintenance</html>")
        }
    }
}
