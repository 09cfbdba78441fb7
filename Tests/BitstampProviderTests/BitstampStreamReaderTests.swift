import BitstampProviderLibrary
import PriceHostTesting
import ProviderABI
import Testing

struct BitstampStreamReaderTests {
    static let btc = QuoteRequest(asset: "BTC", currency: "USD")
    static let eth = QuoteRequest(asset: "ETH", currency: "USD")
    static let pairs = [btc, eth]
    let reader = BitstampStreamReader()

    /// A trade in Bitstamp's documented layout, with `changes` to `data` (a `nil` value removes the field).
    static func trade(channel: String = "live_trades_btcusd", _ changes: [String: String?] = [:]) -> String {
        let data = JSONObjectText.make([
            ("id", "412345678"), ("timestamp", #""1795176001""#), ("amount", "0.00512"), ("amount_str", #""0.00512000""#),
            ("price", "64000.1"), ("price_str", #""64000.10""#), ("type", "0"), ("microtimestamp", #""1795176001282000""#),
            ("buy_order_id", "1893456789012480"), ("sell_order_id", "1893456788998144"),
        ], changing: changes, spaced: true)
        return #"{"data": \#(data), "channel": "\#(channel)", "event": "trade"}"#
    }

    static func quote(_ pair: QuoteRequest, _ amount: String, _ milliseconds: Int64?) -> StreamEvent {
        .quote(StreamQuote(pair, amount: amount, timestampMilliseconds: milliseconds))
    }

    @Test func recordedFeedGivesEachTradesPriceStringAtItsMillisecond() throws {
        let expected: [[StreamEvent]] = [
            [], [],
            [Self.quote(Self.btc, "64000.10", 1_795_176_001_282)],
            [Self.quote(Self.eth, "3120.50", 1_795_176_001_519)],
            [.heartbeat],
            [Self.quote(Self.btc, "64001.25", 1_795_176_002_047)],
            [Self.quote(Self.btc, "64002.50", 1_795_176_003_311)],
            [.heartbeat],
            [Self.quote(Self.eth, "3120.35", 1_795_176_004_102)],
            [Self.quote(Self.btc, "64001.80", 1_795_176_004_876)],
        ]
        #expect(try RecordedFeed.readings("bitstamp", by: reader, pairs: Self.pairs) == expected)
    }

    @Test func eachPairSubscribesToItsLiveTradesChannel() throws {
        let messages = reader.subscribeMessages(for: Self.pairs)
        #expect(messages == [#"{"event":"bts:subscribe","data":{"channel":"live_trades_btcusd"}}"#,
                             #"{"event":"bts:subscribe","data":{"channel":"live_trades_ethusd"}}"#])
        let first = try JSONCursor(JSONParser.parse(try #require(messages.first)))
        #expect(try first.member("event").string() == "bts:subscribe")
        #expect(try first.member("data").member("channel").string() == "live_trades_btcusd")
        #expect(reader.unsubscribeMessages(for: [Self.eth]) == [#"{"event":"bts:unsubscribe","data":{"channel":"live_trades_ethusd"}}"#])
        #expect(reader.subscribeMessages(for: []) == [])
    }

    @Test func reconnectRequestAsksForANewConnection() {
        #expect(reader.read(#"{"event": "bts:request_reconnect", "channel": "", "data": ""}"#, pairs: Self.pairs)
            == [.reconnect("bts:request_reconnect: Bitstamp asks for a new connection before maintenance")])
    }

    @Test(arguments: [
        (#"{"event": "bts:error", "channel": "", "data": {"code": null, "message": "Invalid channel provided."}}"#, "Invalid channel provided."),
        (#"{"event": "bts:error", "channel": "", "data": {"code": 4009, "message": "Connection is unauthorized."}}"#, "4009 Connection is unauthorized."),
        (#"{"event": "bts:error", "channel": "", "data": {"code": null, "message": "Bad\u0007 subscription\nstring."}}"#, "Bad  subscription string."),
        (#"{"event": "bts:error", "channel": "", "data": ""}"#, "an error without a message"),
    ])
    func bitstampsErrorIsPassedOnAsOneLine(message: String, text: String) {
        #expect(reader.read(message, pairs: Self.pairs) == [.error(text)])
    }

    @Test(arguments: [
        // Truncated JSON, JSON that is not an object, acknowledgements, an event Bitstamp may add.
        String(trade().prefix(70)), "[]", #"{"event": "bts:unsubscription_succeeded", "channel": "live_trades_btcusd", "data": {}}"#,
        #"{"data": {}, "channel": "live_orders_btcusd", "event": "order_created"}"#,
        // A channel the connection did not ask, or none, or a price that is no price.
        trade(channel: "live_trades_solusd"), trade(channel: "live_trades_BTCUSD"), trade(channel: "btcusd"),
        trade(["price_str": nil]), trade(["price_str": "64000.10"]), trade(["price_str": #""0""#]), trade(["price_str": #""64000,10""#]),
        #"{"data": "64000.10", "channel": "live_trades_btcusd", "event": "trade"}"#,
    ])
    func messageWithoutAQuoteOfTheConnectionMeansNothing(message: String) {
        #expect(reader.read(message, pairs: Self.pairs) == [])
    }

    @Test func tradeWithoutAUsableTimeStillGivesItsPrice() {
        for time: String? in [nil, "1795176001282000", #""1795176001.282""#, #""-1""#, #""+1795176001282000""#, #""""#, #""9999999999999999999""#] {
            #expect(reader.read(Self.trade(["microtimestamp": time]), pairs: Self.pairs) == [Self.quote(Self.btc, "64000.10", nil)], "\(time ?? "nil")")
        }
    }

    @Test func feedPingsBitstampUnderTheDefaultStaleness() throws {
        let feed = BitstampProviderPlugin.makeStream()
        #expect(feed.url == "wss://ws.bitstamp.net")
        #expect(feed.reader is BitstampStreamReader)
        #expect(feed.maxPairsPerConnection == 1024)
        #expect(feed.connectLimit == nil)
        #expect(feed.maximumConnectionLifetime == .seconds(7_776_000))
        let ping = try #require(feed.ping)
        #expect(ping.message == #"{"event":"bts:heartbeat"}"#)
        #expect(ping.interval == .seconds(4))
        #expect(try JSONCursor(JSONParser.parse(ping.message)).member("event").string() == "bts:heartbeat")
    }
}
