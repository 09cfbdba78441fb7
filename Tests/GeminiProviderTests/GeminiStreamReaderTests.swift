import GeminiProviderLibrary
import PriceHostTesting
import ProviderABI
import Testing

struct GeminiStreamReaderTests {
    static let btc = QuoteRequest(asset: "BTC", currency: "USD")
    let reader = GeminiStreamReader()

    /// An update in Gemini's documented layout with one trade, with `changes` to the trade (a `nil` value removes the field).
    static func update(_ changes: [String: String?] = [:]) -> String {
        let trade = JSONObjectText.make([
            ("type", #""trade""#), ("tid", "143056217390"), ("price", #""64000.10""#), ("amount", #""0.00512""#), ("makerSide", #""ask""#),
        ], changing: changes)
        return #"{"type":"update","eventId":143056217390,"timestamp":1795176001,"timestampms":1795176001284,"socket_sequence":2,"events":[\#(trade)]}"#
    }

    static func quote(_ amount: String, _ milliseconds: Int64?) -> StreamEvent {
        .quote(StreamQuote(btc, amount: amount, timestampMilliseconds: milliseconds))
    }

    @Test func recordedFeedGivesEachMessagesSequenceThenEachTradesPrice() throws {
        let expected: [[StreamEvent]] = [
            [.sequence(0, scope: "")],
            [.sequence(1, scope: ""), .heartbeat],
            [.sequence(2, scope: ""), Self.quote("64000.10", 1_795_176_001_284)],
            [.sequence(3, scope: ""), Self.quote("64001.25", 1_795_176_002_051)],
            [.sequence(4, scope: ""), .heartbeat],
            [.sequence(5, scope: ""), Self.quote("64002.00", 1_795_176_003_316), Self.quote("64002.50", 1_795_176_003_316)],
            [.sequence(6, scope: ""), .heartbeat],
            [.sequence(7, scope: ""), Self.quote("64001.80", 1_795_176_004_879)],
        ]
        #expect(try RecordedFeed.readings("gemini", by: reader, pairs: [Self.btc]) == expected)
    }

    @Test(arguments: [
        ("wss://api.gemini.com/v1/marketdata", "wss://api.gemini.com/v1/marketdata/btcusd?trades=true&heartbeat=true"),
        ("wss://api.gemini.com/v1/marketdata/", "wss://api.gemini.com/v1/marketdata/btcusd?trades=true&heartbeat=true"),
        ("ws://127.0.0.1:8765/v1/marketdata", "ws://127.0.0.1:8765/v1/marketdata/btcusd?trades=true&heartbeat=true"),
    ])
    func eachConnectionNamesItsSymbolInTheURL(base: String, url: String) {
        #expect(reader.connectionURL(base: base, pairs: [Self.btc]) == url)
        #expect(reader.subscribeMessages(for: [Self.btc]) == [])
    }

    @Test func connectionOfOtherThanOnePairHasNoURLAndNoQuotes() throws {
        let eth = QuoteRequest(asset: "ETH", currency: "USD")
        #expect(reader.connectionURL(base: "wss://api.gemini.com/v1/marketdata", pairs: []) == nil)
        #expect(reader.connectionURL(base: "wss://api.gemini.com/v1/marketdata", pairs: [Self.btc, eth]) == nil)
        #expect(reader.read(Self.update(), pairs: [Self.btc, eth]) == [.sequence(2, scope: "")])
        #expect(reader.read(Self.update(), pairs: []) == [.sequence(2, scope: "")])
    }

    @Test func firstUpdateOfTheBookGivesItsSequenceAlone() {
        let initial = #"{"type":"update","eventId":5375461993,"socket_sequence":0,"events":[{"type":"change","reason":"initial","price":"3641.61","delta":"0.83372051","remaining":"0.83372051","side":"bid"},{"type":"change","reason":"initial","price":"3641.62","delta":"4.072","remaining":"4.072","side":"ask"}]}"#
        #expect(reader.read(initial, pairs: [Self.btc]) == [.sequence(0, scope: "")])
    }

    @Test func tradeAmongBookChangesGivesItsPriceAlone() {
        let update = #"{"type":"update","eventId":5375547515,"timestamp":1547760288,"timestampms":1547760288001,"socket_sequence":15,"events":[{"type":"trade","tid":5375547515,"price":"3632.54","amount":"0.1362819142","makerSide":"ask"},{"type":"change","side":"ask","price":"3632.54","remaining":"0","delta":"-0.1362819142","reason":"trade"}]}"#
        #expect(reader.read(update, pairs: [Self.btc])
            == [.sequence(15, scope: ""), .quote(StreamQuote(Self.btc, amount: "3632.54", timestampMilliseconds: 1_547_760_288_001))])
    }

    @Test(arguments: [
        update(["price": nil]), update(["price": "64000.10"]), update(["price": #""0""#]), update(["price": #""-1""#]),
        update(["price": #""6.4e4""#]), update(["type": #""block_trade""#]), update(["type": nil]),
        #"{"type":"update","socket_sequence":2,"events":{"type":"trade","price":"1"}}"#,
        #"{"type":"auction_result","socket_sequence":2}"#,
    ])
    func messageWithoutAUsableTradeGivesItsSequenceAlone(message: String) {
        #expect(reader.read(message, pairs: [Self.btc]) == [.sequence(2, scope: "")])
    }

    @Test(arguments: [String(update().prefix(80)), "[]", #"{"socket_sequence":3}"#, #"{"type":7,"socket_sequence":3}"#])
    func messageThatIsNoGeminiMessageMeansNothing(message: String) {
        #expect(reader.read(message, pairs: [Self.btc]) == [])
    }

    @Test func messageWithoutSequenceOrTimeStillCounts() {
        #expect(reader.read(#"{"type":"heartbeat"}"#, pairs: [Self.btc]) == [.heartbeat])
        #expect(reader.read(#"{"type":"heartbeat","socket_sequence":"4"}"#, pairs: [Self.btc]) == [.heartbeat])
        #expect(reader.read(#"{"type":"update","socket_sequence":9,"events":[{"type":"trade","price":"64000.10"}]}"#, pairs: [Self.btc])
            == [.sequence(9, scope: ""), Self.quote("64000.10", nil)])
    }

    @Test func feedOpensOneConnectionAPairWithinGeminisPublicAllowance() throws {
        let feed = GeminiProviderPlugin.makeStream()
        #expect(feed.url == "wss://api.gemini.com/v1/marketdata")
        #expect(feed.reader.connectionURL(base: feed.url, pairs: [Self.btc]) == "wss://api.gemini.com/v1/marketdata/btcusd?trades=true&heartbeat=true")
        #expect(feed.maxPairsPerConnection == 1)
        let limit = try #require(feed.connectLimit)
        #expect(limit.attempts == 60 && limit.window == .seconds(60))
        #expect(feed.maximumConnectionLifetime == nil)
        #expect(feed.ping == nil)
    }
}
