import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// `fetch --aggregate median` across the market plugins, every market's
/// `baseURL` pointed at one loopback server that answers in each API's shape.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct MarketsMedianTests {
    /// Each market's answer for BTC and ETH, by request path.
    static let answers: [String: String] = [
        "/0/public/Ticker?pair=XBTUSD": #"{"error":[],"result":{"XXBTZUSD":{"c":["37020.00000","0.00100000"]}}}"#,
        "/0/public/Ticker?pair=ETHUSD": #"{"error":[],"result":{"XETHZUSD":{"c":["3120.75000","0.01000000"]}}}"#,
        "/v2/prices/BTC-USD/spot": #"{"data":{"base":"BTC","currency":"USD","amount":"37000"}}"#,
        "/v2/prices/ETH-USD/spot": #"{"data":{"base":"ETH","currency":"USD","amount":"3120.5"}}"#,
        "/api/v2/ticker/btcusd/": #"{"last": "37010", "timestamp": "1700000000"}"#,
        "/api/v2/ticker/ethusd/": #"{"last": "3121.00", "timestamp": "1700000000"}"#,
        "/v1/pubticker/btcusd": #"{"last": "36990", "volume": {"timestamp": 1700000000000}}"#,
        "/v1/pubticker/ethusd": #"{"last": "3120", "volume": {"timestamp": 1700000000000}}"#,
        "/api/v3/simple/price?ids=bitcoin&vs_currencies=usd&include_last_updated_at=true": #"{"bitcoin":{"usd":3.9e4,"last_updated_at":1700000000}}"#,
        "/api/v3/simple/price?ids=ethereum&vs_currencies=usd&include_last_updated_at=true": #"{"ethereum":{"usd":3120.25,"last_updated_at":1700000000}}"#,
    ]

    /// examples/markets.json as shipped, each market pointed at `baseURL` with one attempt.
    static func shippedMarketsConfig(baseURL: String) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: BuiltProducts.packageRoot + "/examples/markets.json"))
        var config = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(config["plugins"] as? [String]
            == ["libCoinbaseProvider.so", "libKrakenProvider.so", "libBitstampProvider.so", "libGeminiProvider.so", "libCoinGeckoProvider.so"])
        var providers = try #require(config["providers"] as? [String: [String: Any]])
        #expect(providers.keys.sorted() == ["bitstamp", "coinbase", "coingecko", "gemini", "kraken"])
        for name in providers.keys {
            providers[name]?["baseURL"] = baseURL
            providers[name]?["maxAttempts"] = 1
        }
        config["providers"] = providers
        let assets = try #require(config["assets"] as? [String: [String: Any]])
        for code in ["BTC", "ETH"] {
            #expect(assets[code]?["providers"] as? [String] == ["coinbase", "kraken", "bitstamp", "gemini", "coingecko"])
            #expect(assets[code]?["maxDeviationBps"] as? Int == 100)
        }
        return String(decoding: try JSONSerialization.data(withJSONObject: config), as: UTF8.self)
    }

    /// The shipped example: the median of every market, the outlier flagged, and
    /// all markets asked at once (no answer comes until all ten requests are in: they overlap).
    @Test func shippedExampleGivesTheMedianOfEveryMarketAskedAtOnce() throws {
        let arrived = LockedBox(0)
        let allIn = DispatchSemaphore(value: 0)
        let server = try LoopbackHTTPServer { request, _ in
            if arrived.update({ $0 += 1; return $0 }) == 10 { for _ in 0..<10 { allIn.signal() } }
            // Held until the tenth request is in, at most 10 s: asked one after another, they would take 10 s and more.
            _ = allIn.wait(timeout: .now() + 10)
            return .init(status: Self.answers[request.path] == nil ? 404 : 200, body: Self.answers[request.path] ?? "")
        }
        defer { server.stop() }
        let sandbox = try Sandbox(config: try Self.shippedMarketsConfig(baseURL: server.baseURL))
        defer { sandbox.remove() }
        let started = Date()
        let result = try sandbox.run(["fetch", "--asset", "BTC,ETH", "--aggregate", "median", "--format", "csv"])
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(result)")
        #expect(result.errorLines == ["pricehost: warning: coingecko: BTC-USD 39000 deviates from the median 37010 by 537.69 bps, more than assets.BTC.maxDeviationBps (100)"])
        // The timestamp is the newest source's: Coinbase's or Kraken's time of receipt, so it is left out here.
        let rows = result.outputLines.map { $0.split(separator: ",", omittingEmptySubsequences: false).enumerated().filter { $0.offset != 4 }.map { String($0.element) } }
        #expect(rows == [
            ["asset", "currency", "amount", "provider", "min", "max", "spread_bps", "count", "outliers"],
            ["BTC", "USD", "37010", "median", "36990", "39000", "543.1", "5", "coingecko"],
            ["ETH", "USD", "3120.5", "median", "3120", "3121", "3.2", "5", ""],
        ])
        // Ten requests, each held until all were in: all in flight at once, not one market after another.
        #expect(server.requestCounts.values.reduce(0, +) == 10)
        #expect(server.peakConcurrentRequests == 10, "the markets were not asked at once")
        #expect(elapsed < 10, "took \(elapsed) s")
    }

    @Test func medianOfOneSourceWarnsNamingWhyEachOtherFailed() throws {
        let server = try LoopbackHTTPServer { request, _ in
            switch request.path {
            case "/api/v2/ticker/btcusd/": .init(body: #"{"last": "37010", "timestamp": "1700000000"}"#)
            case "/v1/pubticker/btcusd":
                .init(status: 400, body: #"{"result":"error","reason":"InvalidSymbol","message":"Supplied value 'btcusd' is not a valid symbol"}"#)
            default: .init(status: 503, body: "<html>Down for maintenance</html>")
            }
        }
        defer { server.stop() }
        let markets = ["bitstamp": "libBitstampProvider.so", "gemini": "libGeminiProvider.so", "coingecko": "libCoinGeckoProvider.so", "binance": "libBinanceProvider.so"]
        let order = ["bitstamp", "gemini", "coingecko", "binance"]
        let settings = order.map { #""\#($0)": {"baseURL": "\#(server.baseURL)", "maxAttempts": 1}"# }.joined(separator: ", ")
        let sandbox = try Sandbox(config: """
            {"plugins": [\(order.map { "\"\(markets[$0]!)\"" }.joined(separator: ", "))],
             "providers": {\(settings)},
             "assets": {"BTC": {"providers": [\(order.map { "\"\($0)\"" }.joined(separator: ", "))]}}}
            """)
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--asset", "BTC", "--aggregate", "median"])
        #expect(result == CommandResult(status: 0, standardOutput: "BTC-USD  37010  median of 1  min 37010  max 37010  spread 0 bps\n", standardError: """
            pricehost: warning: median of 1 source: bitstamp; the others failed: \
            gemini: InvalidSymbol (Supplied value 'btcusd' is not a valid symbol); HTTP 400 for BTC-USD; \
            coingecko: body: <html>Down for maintenance</html>; HTTP 503 for BTC-USD; \
            binance: Binance quotes BTC in stablecoins, not USD; to take one as USD, set providers.binance.currencyAliases, e.g. {"USD": "USDT"} (BTC-USD)

            """))
    }
}
