import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// `pricehost fetch --provider coingecko` against a loopback server replaying
/// CoinGecko's simple price API.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct CoinGeckoTests {
    static func path(_ id: String, _ currency: String = "usd") -> String {
        "/api/v3/simple/price?ids=\(id)&vs_currencies=\(currency)&include_last_updated_at=true"
    }

    static func price(_ id: String, _ number: String) -> String {
        #"{"\#(id)":{"usd":\#(number),"last_updated_at":1700000000}}"#
    }

    static let rateLimited = #"{"status":{"error_code":429,"error_message":"You've exceeded the Rate Limit. Please visit https://www.coingecko.com/en/api/pricing to subscribe to our API plans for higher rate limits."}}"#

    func withCoinGecko(settings: String = #", "ids": {"RL": "rl", "RLX": "rlx", "MAINT": "maint", "JUNK": "junk", "EMPTY": "empty", "TYPE": "type", "GONE": "gone"}"#,
                       _ body: (MarketSandbox) throws -> Void) throws {
        let market = try MarketSandbox(provider: "coingecko", plugin: "libCoinGeckoProvider.so", settings: settings) { request, previous in
            let id = request.path.split(separator: "=")[1].split(separator: "&")[0]
            switch id {
            case "bitcoin": return .init(body: Self.price("bitcoin", "37000.12"))
            case "shiba-inu": return .init(body: Self.price("shiba-inu", "1.234e-05"))
            case "rl": return previous == 0 ? .init(status: 429, headers: [("Retry-After", "1")], body: Self.rateLimited) : .init(body: Self.price("rl", "2.5"))
            case "rlx": return .init(status: 429, headers: [("Retry-After", "0")], body: Self.rateLimited)
            case "maint": return .init(status: 503, body: "<html>CoinGecko is under maintenance</html>")
            case "junk": return .init(body: #"{"junk":{"usd":"#)
            case "empty": return .init(body: "")
            case "type": return .init(body: #"{"type":{"usd":"37000.12"}}"#)
            default: return .init(body: "{}")
            }
        }
        defer { market.remove() }
        try body(market)
    }

    @Test func exponentNotationIsPrintedInPlainDecimalsWithCoinGeckosTime() throws {
        try withCoinGecko { market in
            let result = try market.run(["fetch", "--asset", "BTC,SHIB", "--format", "csv"])
            #expect(result == CommandResult(status: 0, standardOutput: """
                asset,currency,amount,provider,timestamp
                BTC,USD,37000.12,coingecko,2023-11-14T22:13:20Z
                SHIB,USD,0.00001234,coingecko,2023-11-14T22:13:20Z

                """, standardError: ""))
            #expect(market.server.requestCount(path: Self.path("shiba-inu")) == 1)
        }
    }

    @Test(arguments: [
        ("GONE", "coingecko: CoinGecko has no coin with the id gone (GONE-USD)", "gone", 1),
        ("RLX", "coingecko: 429 You've exceeded the Rate Limit. Please visit https://www.coingecko.com/en/api/pricing to subscribe to our API plans for higher rate limits.; HTTP 429 for RLX-USD; Retry-After: 0", "rlx", 3),
        ("MAINT", "coingecko: body: <html>CoinGecko is under maintenance</html>; HTTP 503 for MAINT-USD", "maint", 3),
        ("JUNK", "coingecko: 200 with a body that is not JSON: line 1, column 16: unexpected end of input, expected a value (JUNK-USD)", "junk", 1),
        ("EMPTY", "coingecko: 200 with an empty body (EMPTY-USD)", "empty", 1),
        ("TYPE", "coingecko: 200 with an unexpected shape: type.usd: expected a number, found a string (TYPE-USD)", "type", 1),
    ])
    func badAnswerIsOneLineAndRetriedOnlyWhenItCanSucceed(asset: String, message: String, id: String, requests: Int) throws {
        try withCoinGecko { try $0.expectFailure(asset: asset, message: message, path: Self.path(id), requests: requests) }
    }

    @Test func rateLimitHonoursRetryAfterThenSucceeds() throws {
        try withCoinGecko { try $0.expectRetryAfterHonoured(asset: "RL", path: Self.path("rl"), csvLine: "RL,USD,2.5,coingecko,2023-11-14T22:13:20Z") }
    }

    @Test func assetWithoutAnIdIsNotFoundWithoutARequest() throws {
        try withCoinGecko(settings: "") { market in
            let result = try market.run(["fetch", "--asset", "ZZZ9"])
            #expect(result == CommandResult(status: 1, standardOutput: "", standardError: """
                pricehost: error: coingecko: no CoinGecko id for ZZZ9; add one to providers.coingecko.ids, e.g. {"ZZZ9": "its-id"} (the id is in the coin's coingecko.com URL) (ZZZ9-USD)

                """))
            #expect(market.server.requestCounts.isEmpty)
        }
    }

    /// The key comes from the environment, travels as a header, and is never
    /// printed, not even in debug logs or when CoinGecko refuses it.
    @Test func apiKeyFromTheEnvironmentIsSentAndNeverPrinted() throws {
        let secret = "CG-s3cr3t-k3y-value"
        let seen = LockedBox<String?>(nil)
        let market = try MarketSandbox(provider: "coingecko", plugin: "libCoinGeckoProvider.so", settings: #", "apiKey": "${COINGECKO_API_KEY}""#) { request, _ in
            seen.set(request.headers["x-cg-demo-api-key"])
            return .init(status: 401, body: #"{"status":{"error_code":10002,"error_message":"API Key Missing"}}"#)
        }
        defer { market.remove() }
        let result = try market.run(["fetch", "--asset", "BTC"], environment: ["COINGECKO_API_KEY": secret, "PRICEHOST_LOG": "debug"])
        #expect(result.status == 1, "\(result)")
        #expect(result.errorLines.last == "pricehost: error: coingecko: 10002 API Key Missing; HTTP 401 for BTC-USD", "\(result)")
        #expect(seen.get() == secret)
        #expect(!result.standardError.contains(secret) && !result.standardOutput.contains(secret))
    }
}
