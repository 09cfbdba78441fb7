import Foundation
import GeminiProviderLibrary
import PriceHostTesting
import ProviderABI
import Testing

struct GeminiResponseTests {
    static let btc = QuoteRequest(asset: "BTC", currency: "USD")
    static let receipt = Date(timeIntervalSince1970: 1_800_000_000)

    func quote(_ status: Int, _ text: String, headers: [HTTPHeader] = []) throws -> Quote {
        try GeminiResponse.quote(from: HTTPResponse(status: status, headers: headers, body: body(text)), for: Self.btc,
                                 provider: "gemini", now: Self.receipt)
    }

    @Test func lastIsTheExactAmountWithTheBookAndTimestampIsGeminisMilliseconds() throws {
        // Gemini's pubticker as it sends it (its fields and their order, from its API reference).
        let quote = try quote(200, #"{"ask":"37000.01","bid":"36999.990","last":"37000.000000000000000001","volume":{"BTC":"2210.505328803","USD":"20652076.8393","timestamp":1700000000123}}"#)
        #expect(quote == Quote(asset: "BTC", currency: "USD", amount: Decimal(string: "37000.000000000000000001")!,
                               provider: "gemini", timestamp: Date(timeIntervalSince1970: 1_700_000_000.123),
                               bid: Decimal(string: "36999.99")!, ask: Decimal(string: "37000.01")!))
    }

    @Test func aTickerWithoutBidOrAskHasNeither() throws {
        let quote = try quote(200, #"{"ask": null, "last": "1.5"}"#)
        #expect(quote.bid == nil && quote.ask == nil)
    }

    @Test func withoutATimestampTheTimeOfReceiptIsUsed() throws {
        #expect(try quote(200, #"{"last": "1.5", "volume": {"BTC": "1"}}"#).timestamp == Self.receipt)
        #expect(try quote(200, #"{"last": "1.5"}"#).timestamp == Self.receipt)
    }

    @Test(arguments: [
        ("", "200 with an empty body (BTC-USD)"),
        (#"{"last": "#, "200 with a body that is not JSON: line 1, column 10: unexpected end of input, expected a value (BTC-USD)"),
        (#"{"last": 37000.12}"#, "200 with an unexpected shape: last: expected a string, found a number (BTC-USD)"),
        (#"{"last": "-1"}"#, "200 with an unexpected shape: last: -1 is not a positive price (BTC-USD)"),
        (#"{"last": "1", "volume": {"timestamp": "1700000000000"}}"#, nil),
        (#"{"last": "1", "volume": {"timestamp": true}}"#, "200 with an unexpected shape: volume.timestamp: expected a number or a string, found a boolean (BTC-USD)"),
        (#"{"last": "1", "volume": {"timestamp": 1e40}}"#, #"200 with an unexpected shape: volume.timestamp: not a time in milliseconds since 1970: "1e40" (BTC-USD)"#),
        (#"{"ask": "2", "bid": "1,5", "last": "1"}"#, #"200 with an unexpected shape: bid: not a decimal number: "1,5" (BTC-USD)"#),
        (#"{"ask": "-2", "bid": "1", "last": "1"}"#, "200 with an unexpected shape: ask: -2 is not a positive price (BTC-USD)"),
    ] as [(String, String?)])
    func unusableAnswerIsInvalidResponse(text: String, message: String?) throws {
        if let message {
            #expect(throws: ProviderError(.invalidResponse, message)) { try quote(200, text) }
        } else {
            #expect(try quote(200, text).timestamp == Date(timeIntervalSince1970: 1_700_000_000))
        }
    }

    @Test func invalidSymbolIsNotFoundInGeminisWords() {
        #expect(throws: ProviderError(.notFound, "InvalidSymbol (Supplied value 'zzzusd' is not a valid symbol); HTTP 400 for BTC-USD")) {
            try quote(400, #"{"result": "error", "reason": "InvalidSymbol", "message": "Supplied value 'zzzusd' is not a valid symbol"}"#)
        }
    }

    /// Found by fuzzing: a server error's body is no authority on which symbols exist.
    @Test func invalidSymbolUnderAServerErrorIsUnavailable() {
        #expect(throws: ProviderError(.unavailable, "InvalidSymbol (x); HTTP 503 for BTC-USD")) {
            try quote(503, #"{"result": "error", "reason": "InvalidSymbol", "message": "x"}"#)
        }
    }

    @Test func rateLimitAndMaintenanceAreUnavailable() {
        #expect(throws: ProviderError(.unavailable, "RateLimited (Requests were made too frequently); HTTP 429 for BTC-USD; Retry-After: 1")) {
            try quote(429, #"{"result": "error", "reason": "RateLimited", "message": "Requests were made too frequently"}"#,
                      headers: [HTTPHeader("Retry-After", "1")])
        }
        #expect(throws: ProviderError(.unavailable, "Maintenance (The system is down for maintenance); HTTP 503 for BTC-USD")) {
            try quote(503, #"{"result": "error", "reason": "Maintenance", "message": "The system is down for maintenance"}"#)
        }
        #expect(throws: ProviderError(.unavailable, "no body; HTTP 502 for BTC-USD")) { try quote(502, "") }
    }
}
