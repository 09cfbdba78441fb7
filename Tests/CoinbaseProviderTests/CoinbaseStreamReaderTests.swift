import CoinbaseProviderLibrary
import PriceHostTesting
import ProviderABI
import Testing

struct CoinbaseStreamReaderTests {
    static let btc = QuoteRequest(asset: "BTC", currency: "USD")
    static let eth = QuoteRequest(asset: "ETH", currency: "USD")
    static let pairs = [btc, eth]
    let reader = CoinbaseStreamReader()

    /// A ticker in Coinbase's documented layout, with `changes` (a `nil` value removes the field).
    static func ticker(_ changes: [String: String?] = [:]) -> String {
        JSONObjectText.make([
            ("type", #""ticker""#), ("sequence", "109876543210"), ("product_id", #""BTC-USD""#), ("price", #""64000.10""#),
            ("open_24h", #""63210.45""#), ("best_bid", #""64000.09""#), ("best_ask", #""64000.10""#), ("side", #""buy""#),
            ("time", #""2026-11-20T12:00:00.283114Z""#), ("trade_id", "765432101"), ("last_size", #""0.00512000""#),
        ], changing: changes)
    }

    @Test func recordedFeedGivesEachTickersSequenceThenItsExactPriceBidAndAsk() throws {
        func trade(_ sequence: Int64, _ pair: QuoteRequest, _ amount: String, _ milliseconds: Int64, _ bid: String, _ ask: String) -> [StreamEvent] {
            [.sequence(sequence, scope: pair.pair), .quote(StreamQuote(pair, amount: amount, timestampMilliseconds: milliseconds, bid: bid, ask: ask))]
        }
        let expected: [[StreamEvent]] = [
            [],
            trade(109_876_543_210, Self.btc, "64000.10", 1_795_176_000_283, "64000.09", "64000.10"),
            trade(54_321_098_765, Self.eth, "3120.50", 1_795_176_000_401, "3120.49", "3120.50"),
            [.heartbeat], [.heartbeat],
            trade(109_876_543_498, Self.btc, "64001.25", 1_795_176_001_412, "64001.24", "64001.25"),
            trade(54_321_098_902, Self.eth, "3120.35", 1_795_176_001_733, "3120.35", "3120.36"),
            [.heartbeat], [.heartbeat],
            trade(109_876_543_777, Self.btc, "64002.50", 1_795_176_002_861, "64002.49", "64002.50"),
            [.heartbeat], [.heartbeat],
            trade(109_876_543_991, Self.btc, "64001.80", 1_795_176_003_507, "64001.80", "64001.81"),
        ]
        #expect(try RecordedFeed.readings("coinbase", by: reader, pairs: Self.pairs) == expected)
    }

    @Test func oneSubscribeCarriesEveryProductOnBothChannels() throws {
        let messages = reader.subscribeMessages(for: Self.pairs)
        #expect(messages == [#"{"type":"subscribe","product_ids":["BTC-USD","ETH-USD"],"channels":["heartbeat","ticker"]}"#])
        let message = try JSONCursor(JSONParser.parse(try #require(messages.first)))
        #expect(try message.member("type").string() == "subscribe")
        #expect(try message.member("product_ids").elements().map { try $0.string() } == ["BTC-USD", "ETH-USD"])
        #expect(try message.member("channels").elements().map { try $0.string() } == ["heartbeat", "ticker"])
    }

    @Test func unsubscribeIsTheSameRequestAndNoPairsSendNothing() {
        #expect(reader.unsubscribeMessages(for: [Self.eth]) == [#"{"type":"unsubscribe","product_ids":["ETH-USD"],"channels":["heartbeat","ticker"]}"#])
        #expect(reader.subscribeMessages(for: []) == [])
        #expect(reader.unsubscribeMessages(for: []) == [])
    }

    @Test(arguments: [
        (#"{"type":"error","message":"Failed to subscribe","reason":"ZZZ-USD is not a valid product"}"#,
         "Failed to subscribe: ZZZ-USD is not a valid product"),
        (#"{"type":"error","message":"ErrSlowConsume"}"#, "ErrSlowConsume"),
        (#"{"type":"error","message":"bad\nline\u001b[31m","reason":""}"#, "bad line [31m"),
        (#"{"type":"error"}"#, "an error without a message"),
    ])
    func coinbasesErrorIsPassedOnAsOneLine(message: String, text: String) {
        #expect(reader.read(message, pairs: Self.pairs) == [.error(text)])
    }

    @Test(arguments: [
        // Truncated JSON, JSON that is not an object, an object without a type, a type Coinbase may add.
        String(ticker().prefix(60)), "[]", #""ticker""#, #"{"product_id":"BTC-USD","price":"1"}"#, #"{"type":"auction","product_id":"BTC-USD"}"#,
        // A product the connection did not ask, or none.
        ticker(["product_id": #""SOL-USD""#]), ticker(["product_id": nil]), ticker(["product_id": #""btc-usd""#]),
    ])
    func messageWithoutAQuoteOfTheConnectionMeansNothing(message: String) {
        #expect(reader.read(message, pairs: Self.pairs) == [])
    }

    @Test(arguments: [
        ticker(["price": nil]), ticker(["price": "64000.10"]), ticker(["price": "null"]), ticker(["price": #""64,000.10""#]),
        ticker(["price": #""1e3""#]), ticker(["price": #""0""#]), ticker(["price": #""-64000.10""#]), ticker(["price": #""""#]),
        // A best bid or ask that is there but no price: the host would refuse the quote.
        ticker(["best_bid": #""1e3""#]), ticker(["best_bid": "64000.09"]), ticker(["best_ask": #""0""#]), ticker(["best_ask": #""""#]),
        ticker(["best_ask": #""-1""#]),
    ])
    func tickerWithoutAUsablePriceGivesItsSequenceAlone(message: String) {
        #expect(reader.read(message, pairs: Self.pairs) == [.sequence(109_876_543_210, scope: "BTC-USD")])
    }

    @Test func tickerWithoutSequenceOrTimeStillGivesItsPrice() {
        #expect(reader.read(Self.ticker(["sequence": nil, "time": nil]), pairs: Self.pairs)
            == [.quote(StreamQuote(Self.btc, amount: "64000.10", timestampMilliseconds: nil, bid: "64000.09", ask: "64000.10"))])
        #expect(reader.read(Self.ticker(["sequence": #""12""#, "time": #""yesterday""#]), pairs: Self.pairs)
            == [.quote(StreamQuote(Self.btc, amount: "64000.10", timestampMilliseconds: nil, bid: "64000.09", ask: "64000.10"))])
    }

    @Test func tickerWithoutABestBidOrAskIsAQuoteWithoutIt() {
        #expect(reader.read(Self.ticker(["sequence": nil, "time": nil, "best_bid": nil]), pairs: Self.pairs)
            == [.quote(StreamQuote(Self.btc, amount: "64000.10", timestampMilliseconds: nil, ask: "64000.10"))])
        #expect(reader.read(Self.ticker(["sequence": nil, "time": nil, "best_bid": "null", "best_ask": nil]), pairs: Self.pairs)
            == [.quote(StreamQuote(Self.btc, amount: "64000.10", timestampMilliseconds: nil))])
    }

    @Test(arguments: [
        ("2026-11-20T12:00:00.999999Z", 1_795_176_000_999), ("2026-11-20T12:00:00.5Z", 1_795_176_000_500),
        ("2026-11-20T12:00:00Z", 1_795_176_000_000), ("2026-11-20T13:00:00.001+01:00", 1_795_176_000_001),
        ("2026-11-20T12:00:00.123456789Z", 1_795_176_000_123),
    ] as [(String, Int64)])
    func timeIsCutToTheMillisecond(time: String, milliseconds: Int64) {
        #expect(reader.read(Self.ticker(["time": "\"\(time)\""]), pairs: Self.pairs).last
            == .quote(StreamQuote(Self.btc, amount: "64000.10", timestampMilliseconds: milliseconds, bid: "64000.09", ask: "64000.10")))
    }

    @Test func feedIsCoinbaseExchangeWithinItsConnectionLimit() throws {
        let feed = CoinbaseProviderPlugin.makeStream()
        #expect(feed.url == "wss://ws-feed.exchange.coinbase.com")
        #expect(feed.reader is CoinbaseStreamReader)
        #expect(feed.maxPairsPerConnection == nil)
        let limit = try #require(feed.connectLimit)
        #expect(limit.attempts == 6 && limit.window == .seconds(1))
        #expect(feed.maximumConnectionLifetime == nil)
        #expect(feed.ping == nil)
    }
}
