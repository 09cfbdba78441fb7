import Foundation
import PriceHostTestTraits
import PriceHostTesting
import Testing

/// What only some venues do, and the median across venues' feeds, end to end.
@Suite(.offThePool, .timeLimit(.minutes(2)))
struct StreamVenueBehaviourTests {
    static func bitstampTrade(_ price: String, microseconds: Int) -> String {
        #"{"data": {"id": \#(microseconds), "timestamp": "\#(microseconds / 1_000_000)", "amount": 0.00512, "amount_str": "0.00512000", "price": \#(price), "price_str": "\#(price)", "type": 0, "microtimestamp": "\#(microseconds)", "buy_order_id": 1893456789012480, "sell_order_id": 1893456788998144}, "channel": "live_trades_btcusd", "event": "trade"}"#
    }

    static func krakenTicker(_ last: String, at time: String) -> String {
        #"{"channel":"ticker","type":"update","data":[{"symbol":"BTC/USD","bid":64000.0,"bid_qty":0.25,"ask":64000.2,"ask_qty":1.10402511,"last":\#(last),"volume":1834.27519384,"vwap":63512.3,"low":62850.0,"high":64120.0,"change":1150.1,"change_pct":1.83,"timestamp":"\#(time)"}]}"#
    }

    /// Bitstamp's `bts:request_reconnect`: the new connection is opened (and subscribed) before
    /// the old one closes, and the trades of both arrive once each, in order.
    @Test func bitstampsRequestReconnectOpensTheNewConnectionFirst() async throws {
        guard await StreamVenue.available(for: "StreamVenueBehaviourTests.\(#function)") else { return }
        let base = 1_795_176_001_000_000
        let venue = try await StreamVenue.start([
            [.waitMessage, .send(Self.bitstampTrade("64000.10", microseconds: base)),
             .send(#"{"event": "bts:request_reconnect", "channel": "", "data": ""}"#),
             .sleep(0.3), .send(Self.bitstampTrade("64001.25", microseconds: base + 1_000_000)), .hold],
            [.waitMessage, .send(#"{"event": "bts:subscription_succeeded", "channel": "live_trades_btcusd", "data": {}}"#),
             .send(Self.bitstampTrade("64001.25", microseconds: base + 1_000_000)),
             .send(Self.bitstampTrade("64002.50", microseconds: base + 2_000_000)), .hold],
        ])
        defer { venue.stop() }
        let sandbox = try StreamSandbox(provider: "bitstamp", plugin: "libBitstampProvider.so", streamURL: venue.url())
        defer { sandbox.remove() }
        let result = try await sandbox.watch(["--asset", "BTC", "--provider", "bitstamp", "--ticks", "3"])
        #expect(jsonLines(result).compactMap { $0["amount"] as? String } == ["64000.1", "64001.25", "64002.5"], "\(result)")
        let log = venue.server.log
        let opened = try #require(log.range(of: "CONNECTED 2"), "\(log)")
        if let closed = log.range(of: "CLOSED 1") {
            #expect(opened.lowerBound < closed.lowerBound, "the old connection closed before the new one opened:\n\(log)")
        }
    }

    /// `--aggregate median` over two venues' feeds: a line each time the median over their
    /// latest fresh quotes changes.
    @Test func theMedianOverFeedsIsRecomputedOnEachUpdate() async throws {
        guard await StreamVenue.available(for: "StreamVenueBehaviourTests.\(#function)") else { return }
        let now = Date()
        let coinbase = try await StreamVenue.start([[.waitMessage, .send(CoinbaseFeed.ticker("64000.10", sequence: 1, at: now)), .hold]])
        defer { coinbase.stop() }
        // Kraken speaks once the median of coinbase's quote alone is out, so that the two lines come in this order.
        let signals = try TemporaryDirectory(prefix: "pricehost-median")
        defer { signals.remove() }
        let coinbaseShown = signals.file("coinbase-shown")
        let kraken = try await StreamVenue.start([[.waitMessage, .waitFile(coinbaseShown), .send(Self.krakenTicker("64002.5", at: CoinbaseFeed.iso(now))), .hold]])
        defer { kraken.stop() }
        let sandbox = try Sandbox(config: """
            {
              "plugins": ["libCoinbaseProvider.so", "libKrakenProvider.so"],
              "providers": {
                "coinbase": {"streamURL": "\(coinbase.url())", "baseURL": "http://127.0.0.1:9", "maxAttempts": 1},
                "kraken": {"streamURL": "\(kraken.url())", "baseURL": "http://127.0.0.1:9", "maxAttempts": 1}
              }
            }
            """)
        defer { sandbox.remove() }
        let result = try await offThePool {
            let watch = try BackgroundProcess(BuiltProducts.pricehost, ["watch", "--stream", "--asset", "BTC", "--provider", "coinbase,kraken",
                                                                       "--aggregate", "median", "--ticks", "2", "--config", sandbox.configPath],
                                              currentDirectory: sandbox.directory.path)
            let shown = watch.waitForOutput { !$0.isEmpty }
            _ = try signals.write("", to: "coinbase-shown")
            let status = watch.waitForExit(within: 30)
            return (shown, status, CommandResult(status: status ?? -1, standardOutput: watch.standardOutput, standardError: watch.standardError))
        }
        #expect(result.0, "the first line never came: \(result.2)")
        #expect(result.1 == 0, "\(result.2)")
        let lines = jsonLines(result.2)
        #expect(lines.compactMap { $0["amount"] as? String } == ["64000.1", "64001.3"], "\(result.2)")
        #expect(lines.compactMap { $0["count"] as? Int } == [1, 2], "\(result.2)")
        for line in lines {
            #expect(line["provider"] as? String == "median" && line["source"] as? String == "stream" && line["receivedAt"] is String)
        }
    }
}
