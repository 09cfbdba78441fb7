import BitstampProviderLibrary
import PriceHostFuzzing
import PriceHostTestTraits
import PriceHostTesting
import ProviderABI
import Testing

/// Seeded, bounded fuzzing of ``BitstampStreamReader`` (see docs/FUZZING.md).
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct BitstampStreamReaderFuzzTests {
    @Test func mutatedMessagesNeverBreakTheFeedsRules() throws {
        let btc = QuoteRequest(asset: "BTC", currency: "USD"), eth = QuoteRequest(asset: "ETH", currency: "USD")
        let tally = try StreamReaderFuzzing.run("BitstampStreamReaderFuzzTests/mutated", reader: BitstampStreamReader(),
                                                corpus: try RecordedFeed.messages("bitstamp") + [
                                                    #"{"event": "bts:error", "channel": "", "data": {"code": 4009, "message": "Connection is unauthorized."}}"#,
                                                    #"{"event": "bts:request_reconnect", "channel": "", "data": ""}"#,
                                                ],
                                                tokens: [#""trade""#, #""bts:heartbeat""#, #""bts:error""#, #""bts:request_reconnect""#, #""price_str""#,
                                                         #""microtimestamp""#, #""live_trades_btcusd""#, #""live_trades_ethusd""#, #""0""#,
                                                         #""99999999999999999""#, #""message""#],
                                                connections: [[btc, eth], [btc], [eth], []])
        #expect(tally.values > 0 && tally.errors > 0, "\(tally)")
    }
}
