import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// `pricehost fetch --provider gemini` against a loopback server replaying
/// Gemini's public ticker.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct GeminiTests {
    /// Gemini's pubticker as it sends it: its fields in its order, with its best bid and ask.
    static func ticker(_ last: String, bid: String = "37000.11", ask: String = "37000.130") -> String {
        #"{"ask":"\#(ask)","bid":"\#(bid)","last":\#(last),"volume":{"BTC":"2210.505328803","USD":"20652076.8393","timestamp":1700000000250}}"#
    }

    static func error(_ reason: String, _ message: String) -> String {
        #"{"result": "error", "reason": "\#(reason)", "message": "\#(message)"}"#
    }

    func withGemini(_ body: (MarketSandbox) throws -> Void) throws {
        let market = try MarketSandbox(provider: "gemini", plugin: "libGeminiProvider.so") { request, previous in
            switch request.path {
            case "/v1/pubticker/btcusd": .init(body: Self.ticker(#""37000.12""#))
            case "/v1/pubticker/rlusd":
                previous == 0 ? .init(status: 429, headers: [("Retry-After", "1")], body: Self.error("RateLimited", "Requests were made too frequently"))
                              : .init(body: Self.ticker(#""2.5""#))
            case "/v1/pubticker/rlxusd":
                .init(status: 429, headers: [("Retry-After", "0")], body: Self.error("RateLimited", "Requests were made too frequently"))
            case "/v1/pubticker/maintusd": .init(status: 503, body: Self.error("Maintenance", "The system is down for maintenance"))
            case "/v1/pubticker/junkusd": .init(body: #"{"last": "#)
            case "/v1/pubticker/emptyusd": .init(body: "")
            case "/v1/pubticker/typeusd": .init(body: Self.ticker("37000.12"))
            case "/v1/pubticker/badaskusd": .init(body: Self.ticker(#""2.5""#, ask: "-2.6"))
            default:
                .init(status: 400, body: Self.error("InvalidSymbol", "Supplied value '\(request.path.split(separator: "/").last ?? "")' is not a valid symbol"))
            }
        }
        defer { market.remove() }
        try body(market)
    }

    @Test func lastPriceIsPrintedExactlyWithGeminisOwnTimeAndItsBidAndAsk() throws {
        try withGemini { market in
            let result = try market.run(["fetch", "--asset", "BTC", "--format", "json"])
            #expect(result.withoutAges == CommandResult(status: 0, standardOutput: """
                {"asset":"BTC","currency":"USD","amount":"37000.12","provider":"gemini","timestamp":"2023-11-14T22:13:20.250Z","bid":"37000.11","ask":"37000.13","status":"live"}

                """, standardError: ""))
        }
    }

    @Test(arguments: [
        ("ZZZ", "gemini: InvalidSymbol (Supplied value 'zzzusd' is not a valid symbol); HTTP 400 for ZZZ-USD", "/v1/pubticker/zzzusd", 1),
        ("RLX", "gemini: RateLimited (Requests were made too frequently); HTTP 429 for RLX-USD; Retry-After: 0", "/v1/pubticker/rlxusd", 3),
        ("MAINT", "gemini: Maintenance (The system is down for maintenance); HTTP 503 for MAINT-USD", "/v1/pubticker/maintusd", 3),
        ("JUNK", "gemini: 200 with a body that is not JSON: line 1, column 10: unexpected end of input, expected a value (JUNK-USD)", "/v1/pubticker/junkusd", 1),
        ("EMPTY", "gemini: 200 with an empty body (EMPTY-USD)", "/v1/pubticker/emptyusd", 1),
        ("TYPE", "gemini: 200 with an unexpected shape: last: expected a string, found a number (TYPE-USD)", "/v1/pubticker/typeusd", 1),
        ("BADASK", "gemini: 200 with an unexpected shape: ask: -2.6 is not a positive price (BADASK-USD)", "/v1/pubticker/badaskusd", 1),
    ])
    func badAnswerIsOneLineAndRetriedOnlyWhenItCanSucceed(asset: String, message: String, path: String, requests: Int) throws {
        try withGemini { try $0.expectFailure(asset: asset, message: message, path: path, requests: requests) }
    }

    @Test func rateLimitHonoursRetryAfterThenSucceeds() throws {
        try withGemini { try $0.expectRetryAfterHonoured(asset: "RL", path: "/v1/pubticker/rlusd", csvLine: "RL,USD,2.5,gemini,2023-11-14T22:13:20.250Z") }
    }
}
