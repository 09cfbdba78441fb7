import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// `pricehost fetch --provider binance` against a loopback server replaying
/// Binance's price endpoint, with `{"currencyAliases": {"USD": "USDT"}}`.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct BinanceTests {
    static let path = "/api/v3/ticker/price?symbol="

    static func error(_ code: Int, _ message: String) -> String {
        #"{"code":\#(code),"msg":"\#(message)"}"#
    }

    static let bookPath = "/api/v3/ticker/bookTicker?symbol="

    /// Binance's `bookTicker` as it sends it: its fields in its order.
    static func book(_ symbol: String, bid: String, ask: String) -> String {
        #"{"symbol":"\#(symbol)","bidPrice":"\#(bid)","bidQty":"0.41002000","askPrice":"\#(ask)","askQty":"0.02011000"}"#
    }

    func withBinance(aliases: Bool = true, bidAsk: Bool = false, _ body: (MarketSandbox) throws -> Void) throws {
        let settings = (aliases ? #", "currencyAliases": {"USD": "USDT"}"# : "") + (bidAsk ? #", "bidAsk": true"# : "")
        let market = try MarketSandbox(provider: "binance", plugin: "libBinanceProvider.so", settings: settings) { request, previous in
            if request.path.hasPrefix(Self.bookPath) {
                switch String(request.path.dropFirst(Self.bookPath.count)) {
                case "BTCUSDT": return .init(body: Self.book("BTCUSDT", bid: "37000.11000000", ask: "37000.12000000"))
                case "ETHUSDT": return .init(body: Self.book("ETHUSDT", bid: "1e3", ask: "3120.51000000"))
                default: return .init(status: 400, body: Self.error(-1121, "Invalid symbol."))
                }
            }
            let symbol = String(request.path.dropFirst(Self.path.count))
            switch symbol {
            case "BTCUSDT": return .init(body: #"{"symbol":"BTCUSDT","price":"37000.12000000"}"#)
            case "ETHUSDT": return .init(body: #"{"symbol":"ETHUSDT","price":"3120.50000000"}"#)
            case "RLUSDT":
                return previous == 0 ? .init(status: 429, headers: [("Retry-After", "1")], body: Self.error(-1003, "Too many requests."))
                                     : .init(body: #"{"symbol":"RLUSDT","price":"2.50000000"}"#)
            case "RLXUSDT": return .init(status: 429, headers: [("Retry-After", "0")], body: Self.error(-1003, "Too many requests."))
            case "BANUSDT": return .init(status: 418, headers: [("Retry-After", "600")], body: Self.error(-1003, "Way too many requests; IP banned."))
            case "GEOUSDT": return .init(status: 451, body: Self.error(0, "Service unavailable from a restricted location."))
            case "MAINTUSDT": return .init(status: 503, body: Self.error(-1001, "Internal error; unable to process your request. Please try again."))
            case "JUNKUSDT": return .init(body: #"{"symbol":"JUNKUSDT","price":"#)
            case "EMPTYUSDT": return .init(body: "")
            case "TYPEUSDT": return .init(body: #"{"symbol":"TYPEUSDT","price":37000.12}"#)
            default: return .init(status: 400, body: Self.error(-1121, "Invalid symbol."))
            }
        }
        defer { market.remove() }
        try body(market)
    }

    @Test func priceIsPrintedExactlyAsUSDThroughTheAlias() throws {
        try withBinance { market in
            let result = try market.run(["fetch", "--asset", "BTC", "--format", "csv"])
            #expect(result.status == 0, "\(result)")
            #expect(result.standardError == "")
            #expect(result.outputLines.last?.hasPrefix("BTC,USD,37000.12,binance,") == true, "\(result)")
        }
    }

    @Test func withBidAskTheBooksBestBidAndAskArePrintedExactly() throws {
        try withBinance(bidAsk: true) { market in
            let result = try market.run(["fetch", "--asset", "BTC", "--format", "json"])
            #expect(result.status == 0, "\(result)")
            #expect(result.standardError == "")
            let line = try #require(result.outputLines.first)
            #expect(line.hasPrefix(#"{"asset":"BTC","currency":"USD","amount":"37000.12","provider":"binance","timestamp":""#), "\(line)")
            #expect(withoutAges(line).hasSuffix(#"Z","bid":"37000.11","ask":"37000.12","status":"live"}"#), "\(line)")
            #expect(market.server.requestCount(path: Self.path + "BTCUSDT") == 1)
            #expect(market.server.requestCount(path: Self.bookPath + "BTCUSDT") == 1)
        }
    }

    @Test func withoutBidAskTheBookIsNeverAsked() throws {
        try withBinance { market in
            let result = try market.run(["fetch", "--asset", "BTC", "--format", "json"])
            #expect(result.status == 0, "\(result)")
            #expect(result.outputLines.first.map(withoutAges)?.hasSuffix(#"Z","status":"live"}"#) == true, "\(result)")
            #expect(market.server.requestCount(path: Self.bookPath + "BTCUSDT") == 0)
        }
    }

    @Test func aMalformedBookFailsTheQuoteNamingTheField() throws {
        try withBinance(bidAsk: true) { market in
            let result = try market.run(["fetch", "--asset", "ETH", "--format", "json"])
            #expect(result == CommandResult(status: 1, standardOutput: "", standardError: """
                pricehost: error: binance: 200 with an unexpected shape: bidPrice: not a decimal number of zero or more: "1e3" (ETH-USD)

                """))
        }
    }

    @Test func usdWithoutAnAliasIsNotFoundAndNeverAsked() throws {
        try withBinance(aliases: false) { market in
            let result = try market.run(["fetch", "--asset", "BTC"])
            #expect(result == CommandResult(status: 1, standardOutput: "", standardError: """
                pricehost: error: binance: Binance quotes BTC in stablecoins, not USD; to take one as USD, set providers.binance.currencyAliases, e.g. {"USD": "USDT"} (BTC-USD)

                """))
            #expect(market.server.requestCounts.isEmpty)
        }
    }

    @Test(arguments: [
        ("ZZZ", "binance: -1121 Invalid symbol. (symbol ZZZUSDT); HTTP 400 for ZZZ-USD", "ZZZUSDT", 1),
        ("RLX", "binance: -1003 Too many requests. (symbol RLXUSDT); HTTP 429 for RLX-USD; Retry-After: 0", "RLXUSDT", 3),
        ("BAN", "binance: this IP is banned for now after too many requests: -1003 Way too many requests; IP banned. (symbol BANUSDT); HTTP 418 for BAN-USD; Retry-After: 600", "BANUSDT", 1),
        ("GEO", "binance: Binance does not serve this location (Binance.US is baseURL https://api.binance.us): 0 Service unavailable from a restricted location. (symbol GEOUSDT); HTTP 451 for GEO-USD", "GEOUSDT", 1),
        ("MAINT", "binance: -1001 Internal error; unable to process your request. Please try again. (symbol MAINTUSDT); HTTP 503 for MAINT-USD", "MAINTUSDT", 3),
        ("JUNK", "binance: 200 with a body that is not JSON: line 1, column 30: unexpected end of input, expected a value (JUNK-USD)", "JUNKUSDT", 1),
        ("EMPTY", "binance: 200 with an empty body (EMPTY-USD)", "EMPTYUSDT", 1),
        ("TYPE", "binance: 200 with an unexpected shape: price: expected a string, found a number (TYPE-USD)", "TYPEUSDT", 1),
    ])
    func badAnswerIsOneLineAndRetriedOnlyWhenItCanSucceed(asset: String, message: String, symbol: String, requests: Int) throws {
        try withBinance { try $0.expectFailure(asset: asset, message: message, path: Self.path + symbol, requests: requests) }
    }

    @Test func rateLimitHonoursRetryAfterThenSucceeds() throws {
        // Binance sends no time: the line carries the time of receipt.
        try withBinance { try $0.expectRetryAfterHonoured(asset: "RL", path: Self.path + "RLUSDT", csvLine: "RL,USD,2.5,binance,") }
    }
}
