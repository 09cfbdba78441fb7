import BinanceProviderLibrary
import PriceHostTesting
import ProviderABI
import Testing

struct BinanceStreamReaderTests {
    static let btc = QuoteRequest(asset: "BTC", currency: "USD")
    static let eth = QuoteRequest(asset: "ETH", currency: "USD")
    static let pairs = [btc, eth]
    static let tetherAsDollar: BinanceSettings = {
        var settings = BinanceSettings()
        settings.currencyAliases = ["USD": "USDT"]
        return settings
    }()

    let reader = BinanceStreamReader(settings: tetherAsDollar)

    /// A 24hrTicker in Binance's documented layout, with `changes` (a `nil` value removes the field).
    static func ticker(_ changes: [String: String?] = [:]) -> String {
        JSONObjectText.make([
            ("e", #""24hrTicker""#), ("E", "1795176001004"), ("s", #""BTCUSDT""#), ("p", #""789.65000000""#), ("P", #""1.249""#),
            ("c", #""64000.10000000""#), ("Q", #""0.00512000""#), ("b", #""64000.09000000""#), ("a", #""64000.10000000""#),
            ("O", "1795089601004"), ("C", "1795176001004"), ("F", "4987654321"), ("L", "4989876543"), ("n", "2222223"),
        ], changing: changes)
    }

    /// A quote with the bid and ask of ``ticker(_:)`` unless told otherwise.
    static func quote(_ pair: QuoteRequest, _ amount: String, _ milliseconds: Int64?,
                      bid: String? = "64000.09000000", ask: String? = "64000.10000000") -> StreamEvent {
        .quote(StreamQuote(pair, amount: amount, timestampMilliseconds: milliseconds, bid: bid, ask: ask))
    }

    @Test func recordedFeedGivesEachTickersLastPriceBidAndAskAsWritten() throws {
        let expected: [[StreamEvent]] = [
            [],
            [Self.quote(Self.btc, "64000.10000000", 1_795_176_001_004, bid: "64000.09000000", ask: "64000.10000000")],
            [Self.quote(Self.eth, "3120.50000000", 1_795_176_001_019, bid: "3120.49000000", ask: "3120.50000000")],
            [Self.quote(Self.btc, "64001.25000000", 1_795_176_002_004, bid: "64001.24000000", ask: "64001.25000000")],
            [Self.quote(Self.eth, "3120.35000000", 1_795_176_002_019, bid: "3120.35000000", ask: "3120.36000000")],
            [Self.quote(Self.btc, "64002.50000000", 1_795_176_003_004, bid: "64002.49000000", ask: "64002.50000000")],
            [Self.quote(Self.btc, "64001.80000000", 1_795_176_004_004, bid: "64001.80000000", ask: "64001.81000000")],
        ]
        #expect(try RecordedFeed.readings("binance", by: reader, pairs: Self.pairs) == expected)
    }

    @Test func oneSubscribeNamesEveryPairsStreamThroughTheAliases() throws {
        let messages = reader.subscribeMessages(for: Self.pairs)
        #expect(messages == [#"{"method":"SUBSCRIBE","params":["btcusdt@ticker","ethusdt@ticker"],"id":1}"#])
        let message = try JSONCursor(JSONParser.parse(try #require(messages.first)))
        #expect(try message.member("method").string() == "SUBSCRIBE")
        #expect(try message.member("params").elements().map { try $0.string() } == ["btcusdt@ticker", "ethusdt@ticker"])
        #expect(try message.member("id").integer(in: 1...1) == 1)
        #expect(reader.unsubscribeMessages(for: [Self.eth]) == [#"{"method":"UNSUBSCRIBE","params":["ethusdt@ticker"],"id":2}"#])
    }

    @Test func pairsOfOneSymbolShareItsStreamAndEachGetItsPrice() {
        let tether = QuoteRequest(asset: "BTC", currency: "USDT")
        #expect(reader.subscribeMessages(for: [Self.btc, tether]) == [#"{"method":"SUBSCRIBE","params":["btcusdt@ticker"],"id":1}"#])
        #expect(reader.read(Self.ticker(), pairs: [Self.btc, tether])
            == [Self.quote(Self.btc, "64000.10000000", 1_795_176_001_004), Self.quote(tether, "64000.10000000", 1_795_176_001_004)])
    }

    @Test func dollarsWithoutAnAliasHaveNoStream() {
        let plain = BinanceStreamReader(settings: BinanceSettings())
        #expect(plain.streamName(for: Self.btc) == nil)
        #expect(plain.subscribeMessages(for: [Self.btc]) == [])
        #expect(plain.subscribeMessages(for: [Self.btc, QuoteRequest(asset: "ETH", currency: "EUR")])
            == [#"{"method":"SUBSCRIBE","params":["etheur@ticker"],"id":1}"#])
        // BTCUSDT is no symbol of BTC-USD without the alias.
        #expect(plain.read(Self.ticker(), pairs: [Self.btc]) == [])
    }

    @Test func combinedStreamsWrapperIsReadThrough() {
        #expect(reader.read(#"{"stream":"btcusdt@ticker","data":\#(Self.ticker())}"#, pairs: Self.pairs)
            == [Self.quote(Self.btc, "64000.10000000", 1_795_176_001_004)])
    }

    @Test(arguments: [
        #"{"e":"serverShutdown","E":1795176005000}"#,
        #"{"stream":"!serverShutdown","data":{"e":"serverShutdown","E":1795176005000}}"#,
    ])
    func serverShutdownAsksForANewConnection(message: String) {
        #expect(reader.read(message, pairs: Self.pairs) == [.reconnect("serverShutdown: Binance is about to close the connection")])
    }

    @Test(arguments: [
        (#"{"error":{"code":2,"msg":"Invalid request: unknown variant SUBSCRIBEX"},"id":1}"#, "2 Invalid request: unknown variant SUBSCRIBEX"),
        (#"{"code": 0, "msg": "Unknown property","id": 1}"#, "0 Unknown property"),
        (#"{"code":3,"msg":"Invalid JSON: expected value at line 1 column 1"}"#, "3 Invalid JSON: expected value at line 1 column 1"),
        (#"{"error":{"msg":"busy\r\nnow"},"id":null}"#, "busy  now"),
        (#"{"error":{"code":-1,"msg":""},"id":1}"#, "-1"),
        (#"{"msg":""}"#, "an error without a message"),
    ])
    func binancesErrorIsPassedOnAsOneLine(message: String, text: String) {
        #expect(reader.read(message, pairs: Self.pairs) == [.error(text)])
    }

    @Test(arguments: [
        // Truncated JSON, JSON that is not an object, an event Binance may add.
        String(ticker().prefix(50)), "[]", "null", #"{"e":"24hrMiniTicker","s":"BTCUSDT","c":"1"}"#,
        // A symbol the connection did not ask, or none, or a last price that is no price.
        ticker(["s": #""SOLUSDT""#]), ticker(["s": #""btcusdt""#]), ticker(["s": nil]),
        ticker(["c": nil]), ticker(["c": "64000.10"]), ticker(["c": #""0.00000000""#]), ticker(["c": #""6.4e4""#]), ticker(["c": #""-1""#]),
        // A best bid or ask that is there but no decimal: the host would refuse the quote.
        ticker(["b": #""6.4e4""#]), ticker(["b": "64000.09"]), ticker(["a": #""-1""#]), ticker(["a": #""""#]),
    ])
    func messageWithoutAQuoteOfTheConnectionMeansNothing(message: String) {
        #expect(reader.read(message, pairs: Self.pairs) == [])
    }

    @Test func aSideWithoutOrdersOrAbsentIsUnknown() {
        #expect(reader.read(Self.ticker(["b": #""0.00000000""#]), pairs: Self.pairs)
            == [Self.quote(Self.btc, "64000.10000000", 1_795_176_001_004, bid: nil)])
        #expect(reader.read(Self.ticker(["a": nil, "b": "null"]), pairs: Self.pairs)
            == [Self.quote(Self.btc, "64000.10000000", 1_795_176_001_004, bid: nil, ask: nil)])
    }

    @Test func tickerWithoutAUsableEventTimeStillGivesItsPrice() {
        for time: String? in [nil, #""soon""#, "-5", "99999999999999999"] {
            #expect(reader.read(Self.ticker(["E": time]), pairs: Self.pairs) == [Self.quote(Self.btc, "64000.10000000", nil)])
        }
    }

    @Test func feedAsksTheRestSymbolsWithinBinancesLimits() throws {
        let settings = try BinanceSettings(JSONCursor(JSONParser.parse(#"{"currencyAliases": {"USD": "USDT"}}"#)))
        let feed = BinanceProviderPlugin.makeStream(settings: settings)
        #expect(feed.url == "wss://stream.binance.com:9443/ws")
        let reader = try #require(feed.reader as? BinanceStreamReader)
        #expect(reader.streamName(for: Self.btc) == "btcusdt@ticker")
        #expect(reader.subscribeMessages(for: [Self.btc]) == [#"{"method":"SUBSCRIBE","params":["btcusdt@ticker"],"id":1}"#])
        #expect(feed.maxPairsPerConnection == 1024)
        let limit = try #require(feed.connectLimit)
        #expect(limit.attempts == 250 && limit.window == .seconds(300))
        #expect(feed.maximumConnectionLifetime == .seconds(86_400))
        #expect(feed.ping == nil)
    }
}
