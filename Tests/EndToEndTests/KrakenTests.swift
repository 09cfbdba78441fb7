import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// `pricehost fetch --provider kraken`, the C plugin on the host's JSON
/// services, against a server on 127.0.0.1 replaying Kraken's Ticker shapes:
/// errors arrive inside an HTTP 200.
@Suite(.timeLimit(.minutes(3)), .serialized, .blockingLane)
struct KrakenTests {
    static func ticker(_ key: String, _ price: String) -> String {
        #"{"error":[],"result":{"\#(key)":{"a":["64000.20000","1","1.000"],"b":["64000.00000","2","2.000"],"c":[\#(price),"0.00100000"],"v":["1.1","2.2"]}}}"#
    }

    static func error(_ text: String) -> String { #"{"error":["\#(text)"]}"# }

    /// The server every test uses: one pair per behaviour.
    static func makeServer() throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request, previous in
            switch request.path {
            case "/0/public/Ticker?pair=XBTUSD": .init(body: ticker("XXBTZUSD", #""64000.123456789012""#))
            case "/0/public/Ticker?pair=RLUSD":
                previous == 0 ? .init(body: error("EAPI:Rate limit exceeded")) : .init(body: ticker("RLZUSD", #""2.50""#))
            case "/0/public/Ticker?pair=RLXUSD": .init(body: error("EAPI:Rate limit exceeded"))
            case "/0/public/Ticker?pair=MAINTUSD": .init(body: error("EService:Unavailable"))
            case "/0/public/Ticker?pair=JUNKUSD": .init(body: #"{"error":[],"result":{"JUNK""#)
            case "/0/public/Ticker?pair=EMPTYUSD": .init(body: "")
            case "/0/public/Ticker?pair=TYPEUSD": .init(body: ticker("TYPEZUSD", "64000.1"))
            case "/0/public/Ticker?pair=TEXTUSD": .init(body: ticker("TEXTZUSD", #""1e5""#))
            case "/0/public/Ticker?pair=ZEROUSD": .init(body: ticker("ZEROZUSD", #""0.00000""#))
            case "/0/public/Ticker?pair=NEGUSD": .init(body: ticker("NEGZUSD", #""-3.5""#))
            case "/0/public/Ticker?pair=LISTUSD": .init(body: "[]")
            case "/0/public/Ticker?pair=TWOUSD": .init(body: #"{"error":[],"result":{"A":{"c":["1"]},"B":{"c":["2"]}}}"#)
            case "/0/public/Ticker?pair=DOWNUSD": .init(status: 503, body: "<html>down</html>")
            case "/0/public/Ticker?pair=BADBIDUSD":
                .init(body: #"{"error":[],"result":{"BADBIDZUSD":{"a":["2.6","1","1.000"],"b":["-2.4","2","2.000"],"c":["2.5","1"]}}}"#)
            case "/0/public/Ticker?pair=BADASKUSD":
                .init(body: #"{"error":[],"result":{"BADASKZUSD":{"a":[2.6,"1","1.000"],"b":["2.4","2","2.000"],"c":["2.5","1"]}}}"#)
            case "/0/public/Ticker?pair=NOBOOKUSD": .init(body: #"{"error":[],"result":{"NOBOOKZUSD":{"c":["2.50","1"]}}}"#)
            default: .init(body: error("EQuery:Unknown asset pair"))
            }
        }
    }

    static func config(baseURL: String, extra: String = "") -> String {
        """
        {
          "plugins": ["libKrakenProvider.so"],
          "providers": {
            "kraken": {"baseURL": "\(baseURL)"\(extra), "timeoutSeconds": 2, "maxAttempts": 3, "retryBaseDelayMilliseconds": 10}
          },
          "defaults": {"provider": "kraken"}
        }
        """
    }

    func withSandbox(_ body: (Sandbox, LoopbackHTTPServer) throws -> Void) throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let sandbox = try Sandbox(config: Self.config(baseURL: server.baseURL))
        defer { sandbox.remove() }
        try body(sandbox, server)
    }

    @Test func lastTradeIsTheExactPriceStampedOnArrival() throws {
        try withSandbox { sandbox, server in
            let before = Date()
            let result = try sandbox.run(["fetch", "--asset", "BTC", "--format", "json"])
            #expect(result.status == 0, "\(result)")
            #expect(result.standardError == "")
            let line = try #require(result.outputLines.first)
            #expect(line.hasPrefix(#"{"asset":"BTC","currency":"USD","amount":"64000.123456789012","provider":"kraken","timestamp":""#), "\(line)")
            // The book's best bid b[0] and ask a[0], exact, written without trailing zeros.
            #expect(withoutAges(line).hasSuffix(#"Z","bid":"64000","ask":"64000.2","status":"live"}"#), "\(line)")
            // No time in the ticker: the time of receipt, so within this test's run.
            let stamp = try #require(line.components(separatedBy: #""timestamp":""#).last?.split(separator: "\"").first.map(String.init))
            let date = try #require(ISO8601DateFormatter().date(from: stamp.replacingOccurrences(of: #"\.\d+"#, with: "", options: .regularExpression)))
            #expect(date >= before.addingTimeInterval(-1) && date <= Date().addingTimeInterval(1), "\(stamp)")
            #expect(server.requestCount(path: "/0/public/Ticker?pair=XBTUSD") == 1)
        }
    }

    @Test func rateLimitInsideA200IsRetriedByTheHostThenSucceeds() throws {
        try withSandbox { sandbox, server in
            let result = try sandbox.run(["fetch", "--asset", "RL", "--format", "csv"])
            #expect(result.status == 0, "\(result)")
            #expect(result.outputLines.last?.hasPrefix("RL,USD,2.5,kraken,") == true, "\(result)")
            #expect(server.requestCount(path: "/0/public/Ticker?pair=RLUSD") == 2)
        }
    }

    @Test(arguments: [
        ("DOGE", "kraken: EQuery:Unknown asset pair (DOGEUSD)", 1),
        ("RLX", "kraken: EAPI:Rate limit exceeded (RLXUSD)", 3),
        ("MAINT", "kraken: EService:Unavailable (MAINTUSD)", 3),
        ("JUNK", "kraken: 200 with a body that is not JSON: line 1, column 29: expected ':' after key \"JUNK\", found end of input (JUNKUSD)", 1),
        ("EMPTY", "kraken: 200 with an empty body (EMPTYUSD)", 1),
        ("TYPE", "kraken: 200 with result.TYPEZUSD.c[0] a number, expected a string (TYPEUSD)", 1),
        ("TEXT", "kraken: 200 with result.TEXTZUSD.c[0] \"1e5\" is not a decimal amount (-?digits(.digits)?, at most 38 significant digits) (TEXTUSD)", 1),
        ("ZERO", "kraken: 200 with result.ZEROZUSD.c[0] 0.00000, not a positive price (ZEROUSD)", 1),
        ("NEG", "kraken: 200 with result.NEGZUSD.c[0] -3.5, not a positive price (NEGUSD)", 1),
        ("LIST", "kraken: 200 with an unexpected answer: (top level): expected an object, found an array (LISTUSD)", 1),
        ("TWO", "kraken: 200 with 2 pairs in result, expected 1 (TWOUSD)", 1),
        ("DOWN", "kraken: HTTP 503 (DOWNUSD)", 3),
        ("BADBID", "kraken: 200 with result.BADBIDZUSD.b[0] -2.4, not a positive price (BADBIDUSD)", 1),
        ("BADASK", "kraken: 200 with result.BADASKZUSD.a[0] a number, expected a string (BADASKUSD)", 1),
    ])
    func everyBadAnswerIsOneLineAndRetriedOnlyWhenItCanSucceed(asset: String, message: String, requests: Int) throws {
        try withSandbox { sandbox, server in
            let result = try sandbox.run(["fetch", "--asset", asset])
            #expect(result == CommandResult(status: 1, standardOutput: "", standardError: "pricehost: error: \(message)\n"))
            #expect(server.requestCount(path: "/0/public/Ticker?pair=\(asset)USD") == requests)
        }
    }

    @Test func aTickerWithoutTheBookIsAQuoteWithoutBidOrAsk() throws {
        try withSandbox { sandbox, _ in
            let result = try sandbox.run(["fetch", "--asset", "NOBOOK", "--format", "json"])
            #expect(result.status == 0, "\(result)")
            let line = try #require(result.outputLines.first)
            #expect(line.hasPrefix(#"{"asset":"NOBOOK","currency":"USD","amount":"2.5","provider":"kraken","timestamp":""#) && withoutAges(line).hasSuffix(#"Z","status":"live"}"#), "\(line)")
        }
    }

    @Test func passesTheConformanceCheckAgainstKrakensShapes() throws {
        try withSandbox { sandbox, _ in
            let result = try sandbox.run(["check", "--plugin", BuiltProducts.plugin("libKrakenProvider.so")])
            #expect(result.status == 0, "\(result)")
            #expect(result.standardOutput.contains("conformance passed"), "\(result)")
        }
    }

    @Test func anUnknownSettingIsRefusedByName() throws {
        let sandbox = try Sandbox(config: Self.config(baseURL: "http://127.0.0.1:1", extra: #", "baseUrl": "x""#))
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--asset", "BTC"])
        #expect(result.status == 3, "\(result)")
        #expect(result.standardError.contains("providers.kraken.baseUrl: unknown key (did you mean baseURL?); the only setting is baseURL"), "\(result)")
    }
}
