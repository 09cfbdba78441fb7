import FoundationEssentials
@testable import PriceHostService
import ProviderABI
import Testing

/// A quote as the fleet keeps it in Redis: exact both ways, and nothing else is taken for one.
struct SharedQuoteCodecTests {
    let request = QuoteRequest(asset: "BTC", currency: "USD")

    @Test func aQuoteComesBackExactly() throws {
        let quote = Quote(asset: "BTC", currency: "USD", amount: try #require(DecimalAmount.parse("0.000000000000000001")), provider: "coinbase",
                          timestamp: Date(timeIntervalSince1970: 1_763_640_000.123))
        let text = SharedQuoteCodec.encode(quote)
        #expect(text == #"{"v":1,"asset":"BTC","currency":"USD","amount":"0.000000000000000001","provider":"coinbase","timestamp":"1763640000.123"}"#)
        #expect(SharedQuoteCodec.decode(Array(text.utf8), provider: "coinbase", request: request) == quote)
    }

    @Test func aQuotesBidAndAskComeBackExactlyAfterTheRest() throws {
        let quote = Quote(asset: "BTC", currency: "USD", amount: try #require(DecimalAmount.parse("64000.10")), provider: "coinbase",
                          timestamp: Date(timeIntervalSince1970: 1_763_640_000.123),
                          bid: DecimalAmount.parse("64000.09"), ask: DecimalAmount.parse("64000.100"))
        let text = SharedQuoteCodec.encode(quote)
        #expect(text == #"{"v":1,"asset":"BTC","currency":"USD","amount":"64000.1","provider":"coinbase","timestamp":"1763640000.123","bid":"64000.09","ask":"64000.1"}"#)
        #expect(SharedQuoteCodec.decode(Array(text.utf8), provider: "coinbase", request: request) == quote)
    }

    @Test(arguments: [
        #"{"v":1,"asset":"BTC","currency":"USD","amount":"1","provider":"coinbase","timestamp":"1","bid":"1e3"}"#,
        #"{"v":1,"asset":"BTC","currency":"USD","amount":"1","provider":"coinbase","timestamp":"1","ask":0.5}"#,
        #"{"v":1,"asset":"BTC","currency":"USD","amount":"1","provider":"coinbase","timestamp":"1","ask":"0"}"#,
        #"{"v":1,"asset":"BTC","currency":"USD","amount":"1","provider":"coinbase","timestamp":"1","bid":null}"#,
    ])
    func aBidOrAskThatIsNoPriceIsNoQuote(text: String) {
        #expect(SharedQuoteCodec.decode(Array(text.utf8), provider: "coinbase", request: request) == nil)
    }

    @Test(arguments: [
        "",
        "{not json",
        "[]",
        #"{"v":2,"asset":"BTC","currency":"USD","amount":"1","provider":"coinbase","timestamp":"1"}"#,
        #"{"v":1,"asset":"ETH","currency":"USD","amount":"1","provider":"coinbase","timestamp":"1"}"#,
        #"{"v":1,"asset":"BTC","currency":"EUR","amount":"1","provider":"coinbase","timestamp":"1"}"#,
        #"{"v":1,"asset":"BTC","currency":"USD","amount":"1","provider":"kraken","timestamp":"1"}"#,
        #"{"v":1,"asset":"BTC","currency":"USD","amount":1,"provider":"coinbase","timestamp":"1"}"#,
        #"{"v":1,"asset":"BTC","currency":"USD","amount":"1e3","provider":"coinbase","timestamp":"1"}"#,
        #"{"v":1,"asset":"BTC","currency":"USD","amount":"-1","provider":"coinbase","timestamp":"1"}"#,
        #"{"v":1,"asset":"BTC","currency":"USD","amount":"0","provider":"coinbase","timestamp":"1"}"#,
        #"{"v":1,"asset":"BTC","currency":"USD","amount":"1","provider":"coinbase","timestamp":"nan"}"#,
        #"{"v":1,"asset":"BTC","currency":"USD","amount":"1","provider":"coinbase","timestamp":"1e300"}"#,
        #"{"v":1,"asset":"BTC","currency":"USD","amount":"1","provider":"coinbase"}"#,
    ])
    func anythingElseIsNotAQuote(text: String) {
        #expect(SharedQuoteCodec.decode(Array(text.utf8), provider: "coinbase", request: request) == nil)
    }

    @Test func keysNameProviderAssetAndCurrency() {
        #expect(SharedQuoteCodec.quoteKey(provider: "coinbase", request: request) == "pricehost:quote:coinbase:BTC-USD")
        #expect(SharedQuoteCodec.lockKey(provider: "coinbase", request: request) == "pricehost:lock:coinbase:BTC-USD")
        #expect(SharedQuoteCodec.budgetKey(provider: "coinbase") == "pricehost:budget:coinbase")
    }
}
