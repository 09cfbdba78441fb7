import ConcurrencyHelpers
import Foundation
import Glibc
@testable import PriceHostCore
import PriceHostTesting
import ProviderABI
import Testing

/// Kraken's WebSocket feed (ABI 1.3), as the host sees it: the built C plugin
/// loaded through the host's loader, its `ph_stream` read into a ``PluginStream``,
/// and messages recorded in Kraken v2's documented format read through it.
///
/// Each test loads its own copy of `libKrakenProvider.so`: a plugin keeps the
/// services table it was handed in a global, and `OlderHostTests` calls the
/// built file's entry with tables of its own; a copy is a library of its own,
/// with its own log. The copies stay until the process ends, as the compiled
/// test plugins do: a file removed while loaded frees its inode for the next
/// copy, which `dlopen` (and the host's ``LibraryCache``) would then take for the
/// library already loaded.
struct KrakenStreamTests {
    /// The plugin's feed, and what the plugin logged.
    struct Feed {
        let plugin: LoadedPlugin
        let stream: PluginStream
        let logged: Lock<[String]>

        var lines: [String] { logged.withLock { $0 } }
    }

    /// Where this process's copies go.
    static let directory = ProcessScratch.path + "/kraken-stream"

    static func load() throws -> Feed {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let copy = directory + "/libKrakenStream-\(UUID().uuidString).so"
        try FileManager.default.copyItem(atPath: BuiltProducts.plugin("libKrakenProvider.so"), toPath: copy)
        let config = try ConfigParser.parse(Array("{}".utf8), path: directory + "/plugins.json", environment: [:])
        let logged = Lock<[String]>([])
        let diagnostics = Diagnostics(threshold: .debug, sink: { line in logged.withLock { $0.append(line) } })
        let loader = PluginLoader(searchPath: PluginSearchPath(config: config, environment: [:], executableDirectory: nil),
                                  diagnostics: diagnostics) { _ in UnavailableHTTPClient(reason: "no HTTP in this test") }
        var session = PluginLoader.Session(loader: loader, config: config)
        let loaded = session.load(PluginLoader.Candidate(path: copy))
        let plugin = try #require(loaded).get()
        return Feed(plugin: plugin, stream: try #require(plugin.stream, "the plugin describes no stream"), logged: logged)
    }

    static let btc = QuoteRequest(asset: "BTC", currency: "USD")
    static let eth = QuoteRequest(asset: "ETH", currency: "USD")
    static let both = StreamPairs([btc, eth])

    /// The recorded session: one server message per line.
    static func recording() throws -> [String] {
        let path = BuiltProducts.packageRoot + "/Tests/EndToEndTests/Fixtures/streams/kraken.jsonl"
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// Milliseconds since the epoch of a UTC time, by the C library rather than the plugin.
    static func milliseconds(_ year: Int32, _ month: Int32, _ day: Int32, _ hour: Int32, _ minute: Int32, _ second: Int32,
                             _ millisecond: Int64) -> Int64 {
        var time = tm()
        time.tm_year = year - 1900
        time.tm_mon = month - 1
        time.tm_mday = day
        time.tm_hour = hour
        time.tm_min = minute
        time.tm_sec = second
        return Int64(timegm(&time)) * 1000 + millisecond
    }

    static func quote(_ pair: QuoteRequest, _ amount: String, _ milliseconds: Int64, bid: String? = nil, ask: String? = nil) -> PluginStreamEvent {
        .quote(asset: pair.asset, currency: pair.currency, amount: amount, timestampMilliseconds: milliseconds, bid: bid, ask: ask)
    }

    /// A ticker update for BTC/USD whose data element has `fields` after its symbol.
    static func ticker(_ fields: String, symbol: String = "BTC/USD") -> String {
        #"{"channel":"ticker","type":"update","data":[{"symbol":"\#(symbol)",\#(fields)}]}"#
    }

    @Test func theFeedIsKrakensV2WithAMarginUnderItsConnectionLimit() throws {
        let feed = try Self.load()
        #expect(feed.plugin.name == "kraken")
        #expect(feed.plugin.abiVersion == "1.4")
        #expect(feed.plugin.fetcherNames == ["kraken"])  // the REST fallback the host needs
        #expect(feed.stream.url == "wss://ws.kraken.com/v2")
        #expect(feed.stream.maxPairsPerConnection == nil)
        #expect(feed.stream.connectLimit?.attempts == 100)
        #expect(feed.stream.connectLimit?.window == .seconds(600))
        #expect(feed.stream.maximumConnectionLifetime == nil)
        #expect(feed.stream.ping?.message == #"{"method":"ping"}"#)
        #expect(feed.stream.ping?.interval == .seconds(30))
        #expect(feed.stream.connectionURL(base: "ws://127.0.0.1:9/v2", pairs: Self.both) == "ws://127.0.0.1:9/v2")
    }

    @Test func oneMessageSubscribesEveryPairOfTheConnection() throws {
        let feed = try Self.load()
        let messages = feed.stream.subscribeMessages(for: Self.both)
        #expect(messages == [#"{"method":"subscribe","params":{"channel":"ticker","symbol":["BTC/USD","ETH/USD"]}}"#])
        let parsed = try JSONParser.parse(try #require(messages.first))
        let symbols = try JSONCursor(parsed).member("params").member("symbol").elements().map { try $0.string() }
        #expect(symbols == ["BTC/USD", "ETH/USD"])
        #expect(try JSONCursor(parsed).member("method").string() == "subscribe")
        #expect(try JSONCursor(parsed).member("params").member("channel").string() == "ticker")

        #expect(feed.stream.unsubscribeMessages(for: StreamPairs([Self.eth]))
                == [#"{"method":"unsubscribe","params":{"channel":"ticker","symbol":["ETH/USD"]}}"#])
        #expect(feed.stream.subscribeMessages(for: StreamPairs([])) == [])
    }

    @Test func codesAreEscapedIntoValidJSONWhateverTheyHold() throws {
        let feed = try Self.load()
        let odd = QuoteRequest(asset: #"A"B\"#, currency: "C\nD")
        let message = try #require(feed.stream.subscribeMessages(for: StreamPairs([odd])).first)
        let symbols = try JSONCursor(JSONParser.parse(message)).member("params").member("symbol").elements().map { try $0.string() }
        #expect(symbols == ["A\"B\\/C\nD"])
    }

    @Test func theRecordedSessionGivesEachPriceBidAndAskAsWrittenAndEachHeartbeat() throws {
        let feed = try Self.load()
        let events = try Self.recording().map { feed.stream.read($0, pairs: Self.both) }
        let at = { (second: Int32, millisecond: Int64) in Self.milliseconds(2026, 11, 26, 10, 0, second, millisecond) }
        #expect(events == [
            [],  // status
            [],  // subscribe acknowledged: BTC/USD
            [Self.quote(Self.btc, "64000.1", at(0, 87), bid: "64000.0", ask: "64000.2")],
            [],  // subscribe acknowledged: ETH/USD
            [Self.quote(Self.eth, "3200.45", at(0, 92), bid: "3200.44", ask: "3200.45")],
            [.heartbeat],
            [Self.quote(Self.btc, "64001.25", at(1, 214), bid: "64001.2", ask: "64001.25")],
            [Self.quote(Self.eth, "3201.5", at(1, 530), bid: "3201.4", ask: "3201.5")],
            [.heartbeat],
            [Self.quote(Self.btc, "64002.5", at(2, 6), bid: "64002.4", ask: "64002.5")],
            [.heartbeat],
            [Self.quote(Self.btc, "64003.75", at(3, 412), bid: "64003.7", ask: "64003.75")],
            [Self.quote(Self.eth, "3202.25", at(3, 770), bid: "3202.1", ask: "3202.25")],
            [.heartbeat],
            [Self.quote(Self.btc, "64005.0", at(4, 125), bid: "64004.9", ask: "64005.0")],
            [.heartbeat],
        ])
        #expect(feed.lines == [])
    }

    @Test func aConnectionGetsOnlyItsOwnPairs() throws {
        let feed = try Self.load()
        let quotes = try Self.recording().flatMap { feed.stream.read($0, pairs: StreamPairs([Self.btc])) }.compactMap { event in
            if case .quote(let asset, _, let amount, _, _, _) = event { return "\(asset) \(amount)" }
            return nil
        }
        #expect(quotes == ["BTC 64000.1", "BTC 64001.25", "BTC 64002.5", "BTC 64003.75", "BTC 64005.0"])
    }

    @Test func everyElementOfOneMessageIsRead() throws {
        let feed = try Self.load()
        let message = #"{"channel":"ticker","type":"snapshot","data":[{"symbol":"ETH/USD","last":3200.45},{"symbol":"DOGE/USD","last":0.1},{"symbol":"BTC/USD","last":64000.10}]}"#
        #expect(feed.stream.read(message, pairs: Self.both) == [Self.quote(Self.eth, "3200.45", 0), Self.quote(Self.btc, "64000.10", 0)])
    }

    @Test func aMessageIsReadNoFurtherThanItsConnectionsPairsCouldNeed() throws {
        let feed = try Self.load()
        let elements = (0..<20).map { #"{"symbol":"X\#($0)/USD","last":1.5}"# } + [#"{"symbol":"BTC/USD","last":64000.1}"#]
        let message = #"{"channel":"ticker","type":"snapshot","data":[\#(elements.joined(separator: ","))]}"#
        #expect(feed.stream.read(message, pairs: Self.both) == [])  // 2 pairs: the first 12 elements
        #expect(feed.lines.count == 1 && feed.lines[0].contains("a ticker message with 21 elements for 2 pairs; reading the first 12"), "\(feed.lines)")
        #expect(feed.stream.read(message, pairs: StreamPairs((0..<7).map { QuoteRequest(asset: "A\($0)", currency: "USD") } + [Self.btc]))
                == [Self.quote(Self.btc, "64000.1", 0)])
    }

    @Test func aRefusedSubscriptionIsAnErrorInTheVenuesWords() throws {
        let feed = try Self.load()
        let refused = #"{"error":"Currency pair not supported XYZ/USD","method":"subscribe","success":false,"symbol":"XYZ/USD","time_in":"2026-11-26T10:00:00.101204Z","time_out":"2026-11-26T10:00:00.101263Z"}"#
        #expect(feed.stream.read(refused, pairs: Self.both) == [.error("subscribe refused: Currency pair not supported XYZ/USD")])
        #expect(feed.stream.read(#"{"method":"subscribe","success":false}"#, pairs: Self.both) == [.error("subscribe refused: (no reason given)")])
    }

    @Test(arguments: [
        #"{"method":"pong","time_in":"2026-11-26T10:00:30.000100Z","time_out":"2026-11-26T10:00:30.000150Z"}"#,
        #"{"method":"pong","req_id":101,"time_in":"2026-11-26T10:00:30.000100Z","time_out":"2026-11-26T10:00:30.000150Z"}"#,
        #"{"method":"unsubscribe","result":{"channel":"ticker","symbol":"ETH/USD"},"success":true,"time_in":"2026-11-26T10:01:00.000100Z","time_out":"2026-11-26T10:01:00.000150Z"}"#,
        #"{"channel":"status","data":[{"api_version":"v2","connection_id":13834774380200032777,"system":"maintenance","version":"2.0.0"}],"type":"update"}"#,
        #"{"channel":"book","type":"update","data":[{"symbol":"BTC/USD","bids":[],"asks":[]}]}"#,
    ])
    func whatIsNoPriceAndNoErrorMeansNothing(message: String) throws {
        let feed = try Self.load()
        #expect(feed.stream.read(message, pairs: Self.both) == [])
        #expect(feed.lines == [])
    }

    @Test(arguments: [
        (#"{"channel":"ticker","type":"update","data":[{"symbol":"BTC/USD","last":64000.1"#, "is not JSON"),
        ("", "is not JSON"),
        ("not json at all", "is not JSON"),
        (ticker(#""last":1e5"#), #""1e5" is not a decimal amount"#),
        (ticker(#""last":6.4E+4"#), #""6.4E+4" is not a decimal amount"#),
        (ticker(#""last":"64000.1""#), "last is a string, expected a number"),
        (ticker(#""last":[64000.1]"#), "last is an array, expected a number"),
        (ticker(#""last":-64000.1"#), "last -64000.1 is not a positive price"),
        (ticker(#""last":0.000"#), "last 0.000 is not a positive price"),
        (ticker(#""last":1234567890123456789012345678901234567890.5"#), "is not a decimal amount"),
        (ticker(#""last":64000.1,"bid":1e5,"ask":64000.2"#), #"bid "1e5" is not a decimal amount"#),
        (ticker(#""last":64000.1,"bid":"64000.0","ask":64000.2"#), "bid is a string, expected a number"),
        (ticker(#""last":64000.1,"bid":64000.0,"ask":0"#), "ask 0 is not a positive price"),
        (ticker(#""last":64000.1,"bid":64000.0,"ask":-1.5"#), "ask -1.5 is not a positive price"),
        (#"{"channel":"ticker","type":"update","data":{"symbol":"BTC/USD","last":64000.1}}"#, "data is an object, expected an array"),
        (#"{"channel":"ticker","type":"update"}"#, "data: missing"),
    ])
    func badInputIsNeverAQuoteAndIsLogged(message: String, logged: String) throws {
        let feed = try Self.load()
        #expect(feed.stream.read(message, pairs: Self.both) == [])
        #expect(feed.lines.count == 1 && feed.lines.allSatisfy { $0.contains("kraken stream: ") && $0.contains(logged) }, "\(feed.lines)")
    }

    @Test(arguments: [
        ticker(#""last":64000.1"#, symbol: "XBT/USD"),  // v1's name for BTC; v2 says BTC/USD
        ticker(#""last":64000.1"#, symbol: "BTC/USDT"),
        ticker(#""last":64000.1"#, symbol: "BTC"),
        ticker(#""last":null"#),  // no trade in 24 hours
        ticker(#""bid":64000.0"#),
        #"{"channel":"ticker","type":"update","data":[{"last":64000.1}]}"#,
        #"{"channel":"ticker","type":"update","data":[]}"#,
        #"{"channel":7}"#,
        "[]",
        "null",
        #"[1,{"c":["64000.1","1"]},"ticker","XBT/USD"]"#,  // a v1 message
    ])
    func aMessageWithoutAPriceForTheConnectionIsNothingAndNoNoise(message: String) throws {
        let feed = try Self.load()
        #expect(feed.stream.read(message, pairs: Self.both) == [])
        #expect(feed.lines == [])
    }

    @Test(arguments: [
        ("2026-11-26T10:00:00.087330Z", milliseconds(2026, 11, 26, 10, 0, 0, 87)),
        ("2026-11-26T10:00:00Z", milliseconds(2026, 11, 26, 10, 0, 0, 0)),
        ("2026-11-26t10:00:00.5z", milliseconds(2026, 11, 26, 10, 0, 0, 500)),
        ("2026-11-26T12:30:00.25+02:30", milliseconds(2026, 11, 26, 10, 0, 0, 250)),
        ("2026-11-26T07:00:00-03:00", milliseconds(2026, 11, 26, 10, 0, 0, 0)),
        ("2024-02-29T00:00:00Z", milliseconds(2024, 2, 29, 0, 0, 0, 0)),
        ("2025-02-29T00:00:00Z", 0),  // no such day
        ("2026-13-01T00:00:00Z", 0),
        ("2026-11-26T24:00:00Z", 0),
        ("2026-11-26T10:00:00", 0),  // no offset
        ("2026-11-26 10:00:00Z", 0),
        ("2026-11-26T10:00:00.Z", 0),
        ("0000-01-01T00:00:00Z", 0),
        ("0001-01-01T00:30:00+01:00", 0),  // before the year 1
        ("yesterday", 0),
    ])
    func theVenuesTimeIsTheQuotesOrZeroWhenItIsNotRFC3339(timestamp: String, expected: Int64) throws {
        let feed = try Self.load()
        let message = Self.ticker(#""last":64000.1,"timestamp":"\#(timestamp)""#)
        #expect(feed.stream.read(message, pairs: Self.both) == [Self.quote(Self.btc, "64000.1", expected)])
    }

    @Test func aBidOrAskTheElementLacksIsUnknownAndTheOtherIsKept() throws {
        let feed = try Self.load()
        #expect(feed.stream.read(Self.ticker(#""bid":64000.00,"last":64000.1"#), pairs: Self.both)
                == [Self.quote(Self.btc, "64000.1", 0, bid: "64000.00")])
        #expect(feed.stream.read(Self.ticker(#""bid":null,"ask":64000.20,"last":64000.1"#), pairs: Self.both)
                == [Self.quote(Self.btc, "64000.1", 0, ask: "64000.20")])
        #expect(feed.lines == [])
    }

    @Test func aQuoteWithoutATimeIsStampedByTheHost() throws {
        let feed = try Self.load()
        #expect(feed.stream.read(Self.ticker(#""last":64000.1"#), pairs: Self.both) == [Self.quote(Self.btc, "64000.1", 0)])
        #expect(feed.stream.read(Self.ticker(#""last":64000.1,"timestamp":1764151200"#), pairs: Self.both) == [Self.quote(Self.btc, "64000.1", 0)])
    }
}
