import BitstampProviderLibrary
import PriceHostFuzzing
import PriceHostTestTraits
import PriceHostTesting
import ProviderABI
import Testing

/// Seeded, bounded fuzzing of ``BitstampResponse`` (see docs/FUZZING.md).
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct BitstampResponseFuzzTests {
    @Test func mutatedAnswersGiveAQuoteOrAProviderError() throws {
        let tally = try QuoteResponseFuzzing.run("BitstampResponseFuzzTests/mutated", corpus: [
            #"{"high": "38000.00", "last": "37000.12", "timestamp": "1700000000", "bid": "36999.00", "volume": "1234.5"}"#,
            #"{"last": "0.00001234", "timestamp": "1700000000"}"#,
            #"{"status": "error", "reason": "Rate limit exceeded", "code": "API0005"}"#,
            #"{"status": "error", "reason": {"pair": ["Invalid pair."]}}"#,
            "<html><body><h1>Not Found</h1></body></html>",
        ], tokens: [#""last""#, #""timestamp""#, #""reason""#, #""1e3""#, #""-1""#, #"1700000000000"#, "1.5e9"],
           requests: [QuoteRequest(asset: "BTC", currency: "USD"), QuoteRequest(asset: "ETH", currency: "EUR")]) { response, request in
            try BitstampResponse.quote(from: response, for: request, provider: "bitstamp")
        }
        #expect(tally.values > 0 && tally.errors > 0, "\(tally)")
    }
}
