import BinanceProviderLibrary
import PriceHostFuzzing
import PriceHostTestTraits
import PriceHostTesting
import ProviderABI
import Testing

/// Seeded, bounded fuzzing of ``BinanceStreamReader`` (see docs/FUZZING.md).
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct BinanceStreamReaderFuzzTests {
    @Test func mutatedMessagesNeverBreakTheFeedsRules() throws {
        var settings = BinanceSettings()
        settings.currencyAliases = ["USD": "USDT"]
        let btc = QuoteRequest(asset: "BTC", currency: "USD"), eth = QuoteRequest(asset: "ETH", currency: "USD")
        let tally = try StreamReaderFuzzing.run("BinanceStreamReaderFuzzTests/mutated", reader: BinanceStreamReader(settings: settings),
                                                corpus: try RecordedFeed.messages("binance") + [
                                                    #"{"error":{"code":2,"msg":"Invalid request: unknown variant SUBSCRIBEX"},"id":1}"#,
                                                    #"{"code":0,"msg":"Unknown property","id":1}"#,
                                                    #"{"stream":"!serverShutdown","data":{"e":"serverShutdown","E":1795176005000}}"#,
                                                ],
                                                tokens: [#""24hrTicker""#, #""serverShutdown""#, #""stream""#, #""data""#, #""error""#, #""msg""#,
                                                         #""code""#, #""s""#, #""c""#, #""E""#, #""BTCUSDT""#, #""ETHUSDT""#, #""0.00000000""#, "-1e400"],
                                                connections: [[btc, eth], [btc, QuoteRequest(asset: "BTC", currency: "USDT")], [eth], []])
        #expect(tally.values > 0 && tally.errors > 0, "\(tally)")
    }
}
