import BinanceProviderLibrary
import PriceHostFuzzing
import PriceHostTestTraits
import PriceHostTesting
import ProviderABI
import Testing

/// Seeded, bounded fuzzing of ``BinanceResponse`` (see docs/FUZZING.md).
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct BinanceResponseFuzzTests {
    @Test func mutatedAnswersGiveAQuoteOrAProviderError() throws {
        let tally = try QuoteResponseFuzzing.run("BinanceResponseFuzzTests/mutated", corpus: [
            #"{"symbol":"BTCUSDT","price":"37000.12000000"}"#,
            #"{"symbol":"BTCUSDT","price":"0.00000001"}"#,
            #"{"code":-1121,"msg":"Invalid symbol."}"#,
            #"{"code":0,"msg":"Service unavailable from a restricted location."}"#,
        ], tokens: [#""symbol""#, #""price""#, #""code""#, #""msg""#, #""BTCUSDT""#, "-1121"],
           requests: [QuoteRequest(asset: "BTC", currency: "USD")]) { response, request in
            try BinanceResponse.quote(from: response, for: request, symbol: "BTCUSDT", provider: "binance")
        }
        #expect(tally.values > 0 && tally.errors > 0, "\(tally)")
    }
}
