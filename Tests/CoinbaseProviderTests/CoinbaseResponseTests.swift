import CoinbaseProviderLibrary
import Foundation
import PriceHostTesting
import ProviderABI
import Testing

struct CoinbaseResponseTests {
    let request = QuoteRequest(asset: "BTC", currency: "USD")
    let now = Date(timeIntervalSince1970: 1_763_640_000)

    func quote(_ status: Int, _ text: String) throws -> Quote {
        try CoinbaseResponse.quote(from: HTTPResponse(status: status, body: body(text)), for: request, provider: "coinbase", now: now)
    }

    @Test func spotAnswerBecomesAnExactQuote() throws {
        let quote = try quote(200, #"{"data":{"base":"BTC","currency":"USD","amount":"0.000000000000000001"}}"#)
        #expect(quote == Quote(asset: "BTC", currency: "USD", amount: Decimal(string: "0.000000000000000001")!, provider: "coinbase", timestamp: now))
    }

    @Test func lowerCaseCodesInTheAnswerAreAccepted() throws {
        #expect(try quote(200, #"{"data":{"base":"btc","currency":"usd","amount":"2"}}"#).amount == 2)
    }

    @Test(arguments: [
        (200, "", ProviderError(.invalidResponse, "200 with an empty body (BTC-USD)")),
        (200, "[]", ProviderError(.invalidResponse, "200 with an unexpected shape: (top level): expected an object, found an array (BTC-USD)")),
        (200, #"{"data":{"base":"BTC","currency":"USD"}}"#, ProviderError(.invalidResponse, "200 with an unexpected shape: data.amount: missing (BTC-USD)")),
        (200, #"{"data":{"base":"BTC","currency":"USD","amount":15840.01}}"#,
         ProviderError(.invalidResponse, "200 with an unexpected shape: data.amount: expected a string, found a number (BTC-USD)")),
        (200, #"{"data":{"base":"BTC","currency":"USD","amount":"1e3"}}"#,
         ProviderError(.invalidResponse, "200 with data.amount that is not a decimal number: \"1e3\" (BTC-USD)")),
        (200, #"{"data":{"base":"BTC","currency":"EUR","amount":"1"}}"#, ProviderError(.invalidResponse, "200 with a price for BTC-EUR (BTC-USD)")),
        (404, #"{"errors":[{"id":"not_found","message":"Invalid base currency"}]}"#, ProviderError(.notFound, "404 not_found: Invalid base currency (BTC-USD)")),
        (429, #"{"errors":[{"id":"rate_limit_exceeded","message":"Too many requests"}]}"#,
         ProviderError(.unavailable, "429 rate_limit_exceeded: Too many requests (BTC-USD)")),
        (401, #"{"errors":[{"id":"authentication_error"}]}"#, ProviderError(.invalidRequest, "401 authentication_error: no message (BTC-USD)")),
        (502, "", ProviderError(.unavailable, "502 no error details (BTC-USD)")),
        (503, "line one\nline two\u{1B}[31m", ProviderError(.unavailable, "503 body: line one line two [31m (BTC-USD)")),
    ])
    func badAnswersBecomeNamedErrors(status: Int, text: String, expected: ProviderError) {
        #expect(throws: expected) { try quote(status, text) }
    }

    @Test func bodyTextInA200ErrorIsKeptOnOneLine() {
        #expect(throws: ProviderError(.invalidResponse, "200 with a price for B C-USD (BTC-USD)")) {
            try quote(200, #"{"data":{"base":"B\nC","currency":"USD","amount":"1"}}"#)
        }
    }

    @Test func codesMatchByASCIIRulesOnly() {
        #expect(throws: ProviderError(.invalidResponse, "200 with a price for ſol-USD (SOL-USD)")) {
            try CoinbaseResponse.quote(from: HTTPResponse(status: 200, body: body(#"{"data":{"base":"ſol","currency":"USD","amount":"1"}}"#)),
                                       for: QuoteRequest(asset: "SOL", currency: "USD"), provider: "coinbase", now: now)
        }
    }
}
