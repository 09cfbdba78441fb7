import CoinGeckoProviderLibrary
import Foundation
import PriceHostTesting
import ProviderABI
import Testing

struct CoinGeckoResponseTests {
    static let receipt = Date(timeIntervalSince1970: 1_800_000_000)

    func quote(_ status: Int, _ text: String, asset: String = "BTC", id: String = "bitcoin", headers: [HTTPHeader] = []) throws -> Quote {
        try CoinGeckoResponse.quote(from: HTTPResponse(status: status, headers: headers, body: body(text)),
                                    for: QuoteRequest(asset: asset, currency: "USD"), id: id, provider: "coingecko", now: Self.receipt)
    }

    @Test func priceIsTheNumbersExactTextAndTimestampIsCoinGeckosSeconds() throws {
        let quote = try quote(200, #"{"bitcoin": {"usd": 37000.123456789012345678, "last_updated_at": 1700000000}}"#)
        #expect(quote == Quote(asset: "BTC", currency: "USD", amount: Decimal(string: "37000.123456789012345678")!,
                               provider: "coingecko", timestamp: Date(timeIntervalSince1970: 1_700_000_000)))
    }

    @Test(arguments: [
        ("1.234e-05", "0.00001234"),
        ("1.234E-5", "0.00001234"),
        ("8.7e-09", "0.0000000087"),
        ("2.5e+3", "2500"),
        ("3E2", "300"),
        ("0.1", "0.1"),
        ("91234.56", "91234.56"),
    ])
    func exponentNotationIsConvertedExactly(number: String, amount: String) throws {
        let quote = try quote(200, #"{"shiba-inu": {"usd": \#(number)}}"#, asset: "SHIB", id: "shiba-inu")
        #expect(DecimalAmount.format(quote.amount) == amount)
        #expect(quote.amount == DecimalAmount.parse(amount))
        #expect(quote.timestamp == Self.receipt)
    }

    @Test func unknownIdAndUnknownCurrencyAreNotFound() {
        #expect(throws: ProviderError(.notFound, "CoinGecko has no coin with the id bitcoin (BTC-USD)")) { try quote(200, "{}") }
        #expect(throws: ProviderError(.notFound, "CoinGecko has no price of bitcoin in usd (BTC-USD)")) { try quote(200, #"{"bitcoin": {}}"#) }
    }

    @Test(arguments: [
        ("", "200 with an empty body (BTC-USD)"),
        (#"{"bitcoin": {"usd": 1.}}"#, "200 with a body that is not JSON: line 1, column 23: expected a digit after '.' (BTC-USD)"),
        (#"{"bitcoin": {"usd": "37000.12"}}"#, "200 with an unexpected shape: bitcoin.usd: expected a number, found a string (BTC-USD)"),
        (#"{"bitcoin": {"usd": 0}}"#, "200 with an unexpected shape: bitcoin.usd: 0 is not a positive price (BTC-USD)"),
        (#"{"bitcoin": {"usd": 1e400}}"#, #"200 with an unexpected shape: bitcoin.usd: not a decimal number: "1e400" (BTC-USD)"#),
        (#"{"bitcoin": {"usd": 1, "last_updated_at": -5}}"#, #"200 with an unexpected shape: bitcoin.last_updated_at: not a time in seconds since 1970: "-5" (BTC-USD)"#),
        (#"["bitcoin"]"#, "200 with an unexpected shape: (top level): expected an object, found an array (BTC-USD)"),
    ])
    func unusableAnswerIsInvalidResponse(text: String, message: String) {
        #expect(throws: ProviderError(.invalidResponse, message)) { try quote(200, text) }
    }

    @Test func coinGeckosOwnErrorIsPassedOn() {
        #expect(throws: ProviderError(.unavailable, "429 You've exceeded the Rate Limit.; HTTP 429 for BTC-USD; Retry-After: 60")) {
            try quote(429, #"{"status": {"error_code": 429, "error_message": "You've exceeded the Rate Limit."}}"#, headers: [HTTPHeader("Retry-After", "60")])
        }
        #expect(throws: ProviderError(.invalidRequest, "10002 API Key Missing; HTTP 401 for BTC-USD")) {
            try quote(401, #"{"status": {"error_code": 10002, "error_message": "API Key Missing"}}"#)
        }
        #expect(throws: ProviderError(.notFound, "coin not found; HTTP 404 for BTC-USD")) { try quote(404, #"{"error": "coin not found"}"#) }
        #expect(throws: ProviderError(.unavailable, "body: <html>Maintenance</html>; HTTP 503 for BTC-USD")) { try quote(503, "<html>Maintenance</html>") }
    }
}
