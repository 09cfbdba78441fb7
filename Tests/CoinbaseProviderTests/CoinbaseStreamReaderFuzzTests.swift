import CoinbaseProviderLibrary
import PriceHostFuzzing
import PriceHostTestTraits
import PriceHostTesting
import ProviderABI
import Testing

/// Seeded, bounded fuzzing of ``CoinbaseStreamReader`` (see docs/FUZZING.md).
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct CoinbaseStreamReaderFuzzTests {
    @Test func mutatedMessagesNeverBreakTheFeedsRules() throws {
        let btc = QuoteRequest(asset: "BTC", currency: "USD"), eth = QuoteRequest(asset: "ETH", currency: "USD")
        let tally = try StreamReaderFuzzing.run("CoinbaseStreamReaderFuzzTests/mutated", reader: CoinbaseStreamReader(),
                                                corpus: try RecordedFeed.messages("coinbase") + [
                                                    #"{"type":"error","message":"Failed to subscribe","reason":"ZZZ-USD is not a valid product"}"#,
                                                ],
                                                tokens: [#""ticker""#, #""heartbeat""#, #""error""#, #""price""#, #""sequence""#, #""time""#,
                                                         #""best_bid""#, #""best_ask""#, #""product_id""#, #""BTC-USD""#, #""ETH-USD""#, #""0""#, #""-1""#, "9223372036854775808",
                                                         #""2026-11-20T12:00:00.1234567890Z""#, #""9999-12-31T23:59:59.999999Z""#],
                                                connections: [[btc, eth], [btc], [eth], []])
        #expect(tally.values > 0 && tally.errors > 0, "\(tally)")
    }
}
