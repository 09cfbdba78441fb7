import Foundation
import PriceHostTesting
import Testing

/// Each venue's feed, as its plugin reads it, from a loopback server (Python's `websockets`)
/// replaying messages recorded in the venue's documented format (Fixtures/streams), over
/// `ws://` and `wss://` (a private CA through `caFile`): `pricehost watch --stream` prints the
/// venue's prices, exact, in order, each marked as streamed, with the venue's best bid and ask
/// where its messages carry them.
@Suite(.timeLimit(.minutes(2)))
struct StreamVenueFeedTests {
    struct Venue: Sendable, CustomStringConvertible {
        var provider: String
        var plugin: String
        var recording: String
        /// The path the feed's URL ends in (Gemini names the pair in it).
        var path = "/"
        var settings = ""
        /// BTC-USD's first three prices in the recording, as pricehost prints them.
        var expected = ["64000.1", "64001.25", "64002.5"]
        /// The start of the first message the client sends (its subscription), when it sends one.
        var subscribe: String?
        /// Those prices' bid and ask as pricehost prints them (ABI 1.4); none for a feed of trades.
        var bidAsk: [[String]] = []

        var description: String { provider }
    }

    static let venues = [
        Venue(provider: "coinbase", plugin: "libCoinbaseProvider.so", recording: "coinbase.jsonl",
              subscribe: #"{"type":"subscribe","product_ids":["BTC-USD"]"#,
              bidAsk: [["64000.09", "64000.1"], ["64001.24", "64001.25"], ["64002.49", "64002.5"]]),
        Venue(provider: "kraken", plugin: "libKrakenProvider.so", recording: "kraken.jsonl",
              subscribe: #"{"method":"subscribe","params":{"channel":"ticker","symbol":["BTC/USD"]"#,
              bidAsk: [["64000", "64000.2"], ["64001.2", "64001.25"], ["64002.4", "64002.5"]]),
        Venue(provider: "binance", plugin: "libBinanceProvider.so", recording: "binance.jsonl",
              settings: #", "currencyAliases": {"USD": "USDT"}"#, subscribe: #"{"method":"SUBSCRIBE","params":["btcusdt@ticker"]"#,
              bidAsk: [["64000.09", "64000.1"], ["64001.24", "64001.25"], ["64002.49", "64002.5"]]),
        Venue(provider: "bitstamp", plugin: "libBitstampProvider.so", recording: "bitstamp.jsonl",
              subscribe: #"{"event":"bts:subscribe","data":{"channel":"live_trades_btcusd"}}"#),
        Venue(provider: "gemini", plugin: "libGeminiProvider.so", recording: "gemini.jsonl", path: "/v1/marketdata",
              expected: ["64000.1", "64001.25", "64002"]),
    ]

    @Test(arguments: venues, [false, true])
    func aRecordedFeedIsPrintedAsItArrives(venue: Venue, secure: Bool) async throws {
        guard await StreamVenue.available(for: "StreamVenueFeedTests.\(#function)") else { return }
        var certificates: TemporaryDirectory?
        if secure {
            guard let openssl = TestCertificates.openssl else {
                print("StreamVenueFeedTests: the openssl command is not installed (apt-get install openssl); wss:// skipped")
                return
            }
            let directory = try TemporaryDirectory(prefix: "pricehost-ca")
            try await offThePool { try TestCertificates.make(in: directory, openssl: openssl) }
            certificates = directory
        }
        defer { certificates?.remove() }
        // A venue whose URL subscribes gets no message first.
        let opening: [StreamVenue.Step] = venue.subscribe == nil ? [] : [.waitMessage]
        let server = try await StreamVenue.start([opening + [.play(venue.recording, every: 0.02), .hold]], certificates: certificates)
        defer { server.stop() }
        let caFile = certificates.map { #", "caFile": "\#($0.file("ca.pem"))""# } ?? ""
        let sandbox = try StreamSandbox(provider: venue.provider, plugin: venue.plugin, streamURL: server.url(secure: secure, path: venue.path),
                                        settings: venue.settings + caFile)
        defer { sandbox.remove() }
        let result = try await sandbox.watch(["--asset", "BTC", "--provider", venue.provider, "--ticks", "3"])
        #expect(result.status == 0, "\(result)")
        let lines = jsonLines(result)
        #expect(lines.compactMap { $0["amount"] as? String } == venue.expected, "\(venue) secure=\(secure): \(result)")
        // The venue's best bid and ask, exact, on each quote whose message has them; on no other.
        let sides = lines.map { line in ["bid", "ask"].compactMap { line[$0] as? String } }
        #expect(sides == (venue.bidAsk.isEmpty ? Array(repeating: [], count: lines.count) : venue.bidAsk), "\(venue): \(result)")
        for line in lines {
            #expect(line["provider"] as? String == venue.provider && line["source"] as? String == "stream" && line["asset"] as? String == "BTC")
            #expect((line["receivedAt"] as? String)?.hasSuffix("Z") == true)
        }
        if let subscribe = venue.subscribe {
            #expect(server.received.first?.1.hasPrefix(subscribe) == true, "\(venue): \(server.received)")
        } else {
            #expect(server.server.log.contains("CONNECTED 1 /v1/marketdata/btcusd?trades=true&heartbeat=true"), "\(server.server.log)")
        }
    }
}
