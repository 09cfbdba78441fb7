import GeminiProviderLibrary
import PriceHostFuzzing
import PriceHostTestTraits
import PriceHostTesting
import ProviderABI
import Testing

/// Seeded, bounded fuzzing of ``GeminiResponse`` (see docs/FUZZING.md).
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct GeminiResponseFuzzTests {
    @Test func mutatedAnswersGiveAQuoteOrAProviderError() throws {
        let tally = try QuoteResponseFuzzing.run("GeminiResponseFuzzTests/mutated", corpus: [
            #"{"bid": "36999.00", "ask": "37001.00", "volume": {"BTC": "2210.5", "USD": "20652076.8393", "timestamp": 1700000000250}, "last": "37000.12"}"#,
            #"{"last": "1", "volume": {"timestamp": "1700000000000"}}"#,
            #"{"result": "error", "reason": "InvalidSymbol", "message": "Supplied value 'zzzusd' is not a valid symbol"}"#,
            #"{"result": "error", "reason": "Maintenance", "message": "The system is down for maintenance"}"#,
        ], tokens: [#""last""#, #""volume""#, #""timestamp""#, #""reason""#, #""message""#, "1e40", "-5"],
           requests: [QuoteRequest(asset: "BTC", currency: "USD"), QuoteRequest(asset: "ETH", currency: "EUR")]) { response, request in
            try GeminiResponse.quote(from: response, for: request, provider: "gemini")
        }
        #expect(tally.values > 0 && tally.errors > 0, "\(tally)")
    }
}
