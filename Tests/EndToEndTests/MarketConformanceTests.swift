import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// Each market plugin passes the plugin author's conformance check
/// (`pricehost check --plugin`): a clean `not_found` for an asset that does
/// not exist, unknown settings refused, concurrent fetches each completed once.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct MarketConformanceTests {
    /// Every market's answer for BTC-USD, and its way of saying "no such pair" for anything else.
    static func reply(to path: String) -> LoopbackHTTPServer.Reply {
        switch path {
        case "/api/v2/ticker/btcusd/": .init(body: #"{"last": "37000.12", "timestamp": "1700000000"}"#)
        case "/v1/pubticker/btcusd": .init(body: #"{"last": "37000.12"}"#)
        case "/api/v3/ticker/price?symbol=BTCUSDT": .init(body: #"{"symbol": "BTCUSDT", "price": "37000.12"}"#)
        case "/api/v3/simple/price?ids=bitcoin&vs_currencies=usd&include_last_updated_at=true": .init(body: #"{"bitcoin": {"usd": 37000.12}}"#)
        case _ where path.hasPrefix("/v1/"): .init(status: 400, body: #"{"result":"error","reason":"InvalidSymbol","message":"Supplied value is not a valid symbol"}"#)
        case _ where path.hasPrefix("/api/v3/ticker/"): .init(status: 400, body: #"{"code":-1121,"msg":"Invalid symbol."}"#)
        default: .init(status: 404, body: "<html>Not Found</html>")
        }
    }

    @Test(arguments: [
        ("bitstamp", "libBitstampProvider.so", ""),
        ("gemini", "libGeminiProvider.so", ""),
        ("binance", "libBinanceProvider.so", #", "currencyAliases": {"USD": "USDT"}"#),
        ("coingecko", "libCoinGeckoProvider.so", ""),
    ])
    func marketPluginPassesTheConformanceCheck(provider: String, file: String, settings: String) throws {
        let server = try LoopbackHTTPServer { request, _ in Self.reply(to: request.path) }
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = try directory.write(#"{"providers": {"\#(provider)": {"baseURL": "\#(server.baseURL)"\#(settings)}}}"#, to: "plugins.json")
        let plugin = BuiltProducts.plugin(file)
        let result = try CommandRunner.run(BuiltProducts.pricehost, ["check", "--plugin", plugin, "--config", config], currentDirectory: directory.path)
        #expect(result == CommandResult(status: 0, standardOutput: """
            plugin \(provider) 1.0.0 (\(plugin)), fetchers: \(provider)
              fetch BTC-USD through \(provider): 37000.12
            conformance passed

            """, standardError: ""))
    }
}
