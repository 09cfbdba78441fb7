import GeminiProviderLibrary
import PriceHostFuzzing
import PriceHostTestTraits
import PriceHostTesting
import ProviderABI
import Testing

/// Seeded, bounded fuzzing of ``GeminiStreamReader`` (see docs/FUZZING.md).
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct GeminiStreamReaderFuzzTests {
    @Test func mutatedMessagesNeverBreakTheFeedsRules() throws {
        let btc = QuoteRequest(asset: "BTC", currency: "USD")
        let initialBook = #"{"type":"update","eventId":5375461993,"socket_sequence":0,"events":[{"type":"change","reason":"initial","price":"3641.61","delta":"0.83372051","remaining":"0.83372051","side":"bid"}]}"#
        let tally = try StreamReaderFuzzing.run("GeminiStreamReaderFuzzTests/mutated", reader: GeminiStreamReader(),
                                                corpus: try RecordedFeed.messages("gemini") + [initialBook],
                                                tokens: [#""update""#, #""heartbeat""#, #""trade""#, #""change""#, #""events""#, #""price""#,
                                                         #""timestampms""#, #""socket_sequence""#, "9223372036854775807", "-9223372036854775809"],
                                                connections: [[btc], [btc, QuoteRequest(asset: "ETH", currency: "USD")], []])
        #expect(tally.values > 0 && tally.errors > 0, "\(tally)")
    }
}
