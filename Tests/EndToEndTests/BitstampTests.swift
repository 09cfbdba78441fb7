import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// `pricehost fetch --provider bitstamp` against a loopback server replaying
/// Bitstamp's ticker: its shapes on good days and bad.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct BitstampTests {
    /// Bitstamp's ticker as it sends it: its fields in its order, with its best bid and ask.
    static func ticker(_ last: String, timestamp: String = #""1700000000""#, bid: String = "37000.10", ask: String = "37000.20") -> String {
        #"{"timestamp": \#(timestamp), "open": "36500.00", "high": "38000.00", "low": "36000.00", "last": \#(last), "volume": "1234.56789012", "vwap": "37500.10", "bid": "\#(bid)", "ask": "\#(ask)", "side": "0", "open_24": "36450.00", "percent_change_24": "1.51"}"#
    }

    func withBitstamp(_ body: (MarketSandbox) throws -> Void) throws {
        let market = try MarketSandbox(provider: "bitstamp", plugin: "libBitstampProvider.so") { request, previous in
            switch request.path {
            case "/api/v2/ticker/btcusd/": .init(body: Self.ticker(#""37000.123456789""#))
            case "/api/v2/ticker/ethusd/": .init(body: Self.ticker(#""3120.5""#, timestamp: "1700000000", bid: "3120.40000000", ask: "3120.5"))
            case "/api/v2/ticker/badbidusd/": .init(body: Self.ticker(#""2.5""#, bid: "2,4"))
            case "/api/v2/ticker/rlusd/":
                previous == 0 ? .init(status: 429, headers: [("Retry-After", "1")], body: #"{"status": "error", "reason": "Rate limit exceeded", "code": "API0005"}"#)
                              : .init(body: Self.ticker(#""2.5""#))
            case "/api/v2/ticker/rlxusd/":
                .init(status: 429, headers: [("Retry-After", "0")], body: #"{"status": "error", "reason": "Rate limit exceeded", "code": "API0005"}"#)
            case "/api/v2/ticker/maintusd/": .init(status: 503, body: "<html>Bitstamp is under maintenance</html>")
            case "/api/v2/ticker/junkusd/": .init(body: #"{"last": "1"#)
            case "/api/v2/ticker/emptyusd/": .init(body: "")
            case "/api/v2/ticker/typeusd/": .init(body: Self.ticker("37000.12"))
            default: .init(status: 404, body: "<html><body><h1>Not Found</h1></body></html>")
            }
        }
        defer { market.remove() }
        try body(market)
    }

    @Test func lastPriceIsPrintedExactlyWithBitstampsOwnTimeAndItsBidAndAsk() throws {
        try withBitstamp { market in
            let result = try market.run(["fetch", "--asset", "BTC,ETH", "--format", "json"])
            #expect(result.withoutAges == CommandResult(status: 0, standardOutput: """
                {"asset":"BTC","currency":"USD","amount":"37000.123456789","provider":"bitstamp","timestamp":"2023-11-14T22:13:20Z","bid":"37000.1","ask":"37000.2","status":"live"}
                {"asset":"ETH","currency":"USD","amount":"3120.5","provider":"bitstamp","timestamp":"2023-11-14T22:13:20Z","bid":"3120.4","ask":"3120.5","status":"live"}

                """, standardError: ""))
            #expect(market.server.requestCount(path: "/api/v2/ticker/btcusd/") == 1)
        }
    }

    @Test(arguments: [
        ("ZZZ", "bitstamp: no pair zzzusd at Bitstamp (body: <html><body><h1>Not Found</h1></body></html>); HTTP 404 for ZZZ-USD", "/api/v2/ticker/zzzusd/", 1),
        ("RLX", "bitstamp: API0005 Rate limit exceeded; HTTP 429 for RLX-USD; Retry-After: 0", "/api/v2/ticker/rlxusd/", 3),
        ("MAINT", "bitstamp: body: <html>Bitstamp is under maintenance</html>; HTTP 503 for MAINT-USD", "/api/v2/ticker/maintusd/", 3),
        ("JUNK", "bitstamp: 200 with a body that is not JSON: line 1, column 12: unterminated string (JUNK-USD)", "/api/v2/ticker/junkusd/", 1),
        ("EMPTY", "bitstamp: 200 with an empty body (EMPTY-USD)", "/api/v2/ticker/emptyusd/", 1),
        ("TYPE", "bitstamp: 200 with an unexpected shape: last: expected a string, found a number (TYPE-USD)", "/api/v2/ticker/typeusd/", 1),
        ("BADBID", #"bitstamp: 200 with an unexpected shape: bid: not a decimal number: "2,4" (BADBID-USD)"#, "/api/v2/ticker/badbidusd/", 1),
    ])
    func badAnswerIsOneLineAndRetriedOnlyWhenItCanSucceed(asset: String, message: String, path: String, requests: Int) throws {
        try withBitstamp { try $0.expectFailure(asset: asset, message: message, path: path, requests: requests) }
    }

    @Test func rateLimitHonoursRetryAfterThenSucceeds() throws {
        try withBitstamp { try $0.expectRetryAfterHonoured(asset: "RL", path: "/api/v2/ticker/rlusd/", csvLine: "RL,USD,2.5,bitstamp,2023-11-14T22:13:20Z") }
    }
}
