import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// `pricehost fetch --provider coinbase` against a real HTTP server on
/// 127.0.0.1 serving Coinbase's shapes, good days and bad.
@Suite(.timeLimit(.minutes(3)), .serialized, .blockingLane)
struct CoinbaseTests {
    static func spot(_ base: String, _ currency: String, _ amount: String) -> String {
        #"{"data":{"base":"\#(base)","currency":"\#(currency)","amount":"\#(amount)"}}"#
    }

    static func errors(_ id: String, _ message: String) -> String {
        #"{"errors":[{"id":"\#(id)","message":"\#(message)"}]}"#
    }

    /// The server every test uses: one path per behaviour.
    static func makeServer() throws -> LoopbackHTTPServer {
        let big = [UInt8](repeating: UInt8(ascii: " "), count: 64 << 20)
        return try LoopbackHTTPServer { request, previous in
            switch request.path {
            case "/v2/prices/BTC-USD/spot": .init(body: spot("BTC", "USD", "15840.01"))
            case "/v2/prices/ETH-USD/spot": .init(body: spot("ETH", "USD", "3120.123456789012345678"))
            case "/v2/prices/XRP-USD/spot": .init(status: 404, body: errors("not_found", "Invalid base currency"))
            case "/v2/prices/BTC-XYZ/spot": .init(status: 400, body: errors("validation_error", "Invalid currency"))
            case "/v2/prices/BOOM-USD/spot": .init(status: 500, body: errors("internal_server_error", "Something went wrong"))
            case "/v2/prices/MAINT-USD/spot": .init(status: 503, body: "<html>Down for maintenance</html>")
            case "/v2/prices/RL-USD/spot":
                previous == 0 ? .init(status: 429, headers: [("Retry-After", "1")], body: errors("rate_limit_exceeded", "Too many requests"))
                              : .init(body: spot("RL", "USD", "2.5"))
            case "/v2/prices/RLX-USD/spot":
                .init(status: 429, headers: [("Retry-After", "0")], body: errors("rate_limit_exceeded", "Too many requests"))
            case "/v2/prices/SLOW-USD/spot": .init(body: spot("SLOW", "USD", "1"), delay: 2.5)
            case "/v2/prices/JUNK-USD/spot": .init(body: #"{"data": {"base": "JUNK""#)
            case "/v2/prices/TRUNC-USD/spot": .init(body: #"{"data":"#, declaredLength: 400)
            case "/v2/prices/EMPTY-USD/spot": .init(body: "")
            case "/v2/prices/BIG-USD/spot": .init(bytes: big)
            case "/v2/prices/ZERO-USD/spot": .init(body: spot("ZERO", "USD", "0"))
            case "/v2/prices/NEG-USD/spot": .init(body: spot("NEG", "USD", "-3.5"))
            case "/v2/prices/TEXT-USD/spot": .init(body: spot("TEXT", "USD", "twelve"))
            case "/v2/prices/SWAP-USD/spot": .init(body: spot("BTC", "USD", "1"))
            default: .init(status: 404, body: errors("not_found", "Unknown path"))
            }
        }
    }

    static func config(baseURL: String, extra: String = "") -> String {
        """
        {
          "plugins": ["libFileProvider.so", "libCoinbaseProvider.so"],
          "providers": {
            "file": {"path": "prices.json"},
            "coinbase": {"baseURL": "\(baseURL)", "timeoutSeconds": 1, "maxAttempts": 3, "retryBaseDelayMilliseconds": 10}
          },
          "defaults": {"provider": "coinbase"}\(extra)
        }
        """
    }

    func withSandbox(extra: String = "", _ body: (Sandbox, LoopbackHTTPServer) throws -> Void) throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let sandbox = try Sandbox(config: Self.config(baseURL: server.baseURL, extra: extra), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        try body(sandbox, server)
    }

    @Test func spotPriceInCoinbasesShapeIsPrintedExactly() throws {
        try withSandbox { sandbox, server in
            let result = try sandbox.run(["fetch", "--provider", "coinbase", "--asset", "BTC", "--format", "json"])
            #expect(result.status == 0, "\(result)")
            #expect(result.standardError == "")
            let line = try #require(result.outputLines.first)
            #expect(line.hasPrefix(#"{"asset":"BTC","currency":"USD","amount":"15840.01","provider":"coinbase","timestamp":"20"#), "\(line)")
            #expect(server.requestCount(path: "/v2/prices/BTC-USD/spot") == 1)
        }
    }

    @Test func eighteenDecimalPlacesSurviveExactly() throws {
        try withSandbox { sandbox, _ in
            let result = try sandbox.run(["fetch", "--asset", "ETH", "--format", "csv"])
            #expect(result.status == 0, "\(result)")
            #expect(result.outputLines.count == 2)
            #expect(result.outputLines.last?.hasPrefix("ETH,USD,3120.123456789012345678,coinbase,") == true)
        }
    }

    @Test(arguments: [
        ("XRP", "coinbase: 404 not_found: Invalid base currency (XRP-USD)", "/v2/prices/XRP-USD/spot", 1),
        ("BOOM", "coinbase: 500 internal_server_error: Something went wrong (BOOM-USD)", "/v2/prices/BOOM-USD/spot", 3),
        ("MAINT", "coinbase: 503 body: <html>Down for maintenance</html> (MAINT-USD)", "/v2/prices/MAINT-USD/spot", 3),
        ("RLX", "coinbase: 429 rate_limit_exceeded: Too many requests (RLX-USD)", "/v2/prices/RLX-USD/spot", 3),
        ("JUNK", "coinbase: 200 with a body that is not JSON: line 1, column 25: expected ',' or '}' after an object member, found end of input (JUNK-USD)", "/v2/prices/JUNK-USD/spot", 1),
        ("EMPTY", "coinbase: 200 with an empty body (EMPTY-USD)", "/v2/prices/EMPTY-USD/spot", 1),
        ("ZERO", "coinbase: 200 with data.amount 0, which is not a positive price (ZERO-USD)", "/v2/prices/ZERO-USD/spot", 1),
        ("NEG", "coinbase: 200 with data.amount -3.5, which is not a positive price (NEG-USD)", "/v2/prices/NEG-USD/spot", 1),
        ("TEXT", "coinbase: 200 with data.amount that is not a decimal number: \"twelve\" (TEXT-USD)", "/v2/prices/TEXT-USD/spot", 1),
        ("SWAP", "coinbase: 200 with a price for BTC-USD (SWAP-USD)", "/v2/prices/SWAP-USD/spot", 1),
    ])
    func badAnswerIsOneLineAndRetriedOnlyWhenItCanSucceed(asset: String, message: String, path: String, requests: Int) throws {
        try withSandbox { sandbox, server in
            let result = try sandbox.run(["fetch", "--asset", asset])
            #expect(result == CommandResult(status: 1, standardOutput: "", standardError: "pricehost: error: \(message)\n"))
            #expect(server.requestCount(path: path) == requests)
        }
    }

    @Test func badRequestIsNeverRetried() throws {
        try withSandbox { sandbox, server in
            let result = try sandbox.run(["fetch", "--asset", "BTC", "--currency", "XYZ"])
            #expect(result == CommandResult(status: 1, standardOutput: "",
                                            standardError: "pricehost: error: coinbase: 400 validation_error: Invalid currency (BTC-XYZ); "
                                                + "no cross rate: via USD, missing XYZ-USD (coinbase) and USD-XYZ (coinbase)\n"))
            #expect(server.requestCount(path: "/v2/prices/BTC-XYZ/spot") == 1)
        }
    }

    @Test func rateLimitHonoursRetryAfterThenSucceeds() throws {
        try withSandbox { sandbox, server in
            let started = Date()
            let result = try sandbox.run(["fetch", "--asset", "RL", "--format", "csv"])
            #expect(result.status == 0, "\(result)")
            #expect(result.outputLines.last?.hasPrefix("RL,USD,2.5,coinbase,") == true)
            #expect(server.requestCount(path: "/v2/prices/RL-USD/spot") == 2)
            // Retry-After: 1 was honoured (a lower bound only: nothing here is timed against an upper bound).
            #expect(Date().timeIntervalSince(started) >= 1)
        }
    }

    @Test func answerSlowerThanTheTimeoutFailsAfterTheBoundedAttempts() throws {
        try withSandbox { sandbox, server in
            let result = try sandbox.run(["fetch", "--asset", "SLOW"])
            let url = "\(server.baseURL)/v2/prices/SLOW-USD/spot"
            #expect(result == CommandResult(status: 1, standardOutput: "", standardError: """
                pricehost: error: coinbase: GET \(url): no complete answer within 1 s (after 3 attempts)

                """))
            #expect(server.requestCount(path: "/v2/prices/SLOW-USD/spot") == 3)
        }
    }

    @Test func truncatedBodyIsAConnectionFailure() throws {
        try withSandbox { sandbox, server in
            let result = try sandbox.run(["fetch", "--asset", "TRUNC"])
            #expect(result.status == 1, "\(result)")
            #expect(result.standardError.hasPrefix("pricehost: error: coinbase: GET \(server.baseURL)/v2/prices/TRUNC-USD/spot: "), "\(result)")
            #expect(result.errorLines.count == 1)
            #expect(server.requestCount(path: "/v2/prices/TRUNC-USD/spot") == 3)
        }
    }

    @Test func hugeBodyIsRefusedAtTheCapWithoutRetry() throws {
        try withSandbox { sandbox, server in
            let result = try sandbox.run(["fetch", "--asset", "BIG"])
            #expect(result == CommandResult(status: 1, standardOutput: "", standardError: """
                pricehost: error: coinbase: GET \(server.baseURL)/v2/prices/BIG-USD/spot: the answer is 67108864 bytes; the limit (maxResponseBytes) is 1048576 (after 1 attempt)

                """))
            #expect(server.requestCount(path: "/v2/prices/BIG-USD/spot") == 1)
        }
    }

    @Test func connectionRefusedIsNamed() throws {
        let sandbox = try Sandbox(config: Self.config(baseURL: "http://127.0.0.1:1"), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--asset", "BTC"])
        #expect(result == CommandResult(status: 1, standardOutput: "", standardError: """
            pricehost: error: coinbase: GET http://127.0.0.1:1/v2/prices/BTC-USD/spot: connection refused (after 3 attempts)

            """))
    }

    @Test func ethereumRoleIsSwappedByConfigWhileBitcoinStays() throws {
        try withSandbox(extra: ",\n  \"assets\": {\"ETH\": {\"provider\": \"file\"}}") { sandbox, server in
            let result = try sandbox.run(["fetch", "--asset", "BTC,ETH", "--format", "csv"])
            #expect(result.status == 0, "\(result)")
            #expect(result.outputLines.count == 3)
            #expect(result.outputLines[1].hasPrefix("BTC,USD,15840.01,coinbase,"))
            #expect(result.outputLines[2] == "ETH,USD,3120.48,file,2026-11-20T12:00:00Z")
            #expect(server.requestCount(path: "/v2/prices/ETH-USD/spot") == 0)
        }
    }

    @Test func severalAssetsKeepTheirOrderAndReportPartialFailure() throws {
        try withSandbox { sandbox, server in
            let result = try sandbox.run(["fetch", "--asset", "ETH,XRP,BTC", "--format", "csv"])
            #expect(result.status == 4, "\(result)")
            #expect(result.outputLines.count == 3)
            #expect(result.outputLines[1].hasPrefix("ETH,USD,3120.123456789012345678,coinbase,"))
            #expect(result.outputLines[2].hasPrefix("BTC,USD,15840.01,coinbase,"))
            #expect(result.standardError == "pricehost: error: coinbase: 404 not_found: Invalid base currency (XRP-USD)\n")
        }
    }

    @Test func requestCarriesCoinbasesVersionHeaderAndOurUserAgent() throws {
        let seen = LockedBox<LoopbackHTTPServer.Request?>(nil)
        let server = try LoopbackHTTPServer { request, _ in
            seen.set(request)
            return .init(body: Self.spot("BTC", "USD", "1"))
        }
        defer { server.stop() }
        let sandbox = try Sandbox(config: Self.config(baseURL: server.baseURL), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--asset", "BTC"])
        #expect(result.status == 0, "\(result)")
        let request = try #require(seen.get())
        #expect(request.method == "GET")
        #expect(request.headers["cb-version"] == "2024-01-01")
        #expect(request.headers["user-agent"] == "pricehost/0.1.0")
    }

    @Test func requestsInFlightPerProviderStayWithinTheBound() throws {
        let server = try LoopbackHTTPServer { request, _ in
            let pair = request.path.split(separator: "/")[2]
            let base = pair.split(separator: "-")[0]
            return .init(body: Self.spot(String(base), "USD", "1"), delay: 0.2)
        }
        defer { server.stop() }
        let config = Self.config(baseURL: server.baseURL).replacingOccurrences(of: #""maxAttempts": 3"#, with: #""maxAttempts": 1, "maxConcurrentRequests": 3"#)
        let sandbox = try Sandbox(config: config, files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let assets = (1...9).map { "C\($0)" }
        let result = try sandbox.run(["fetch", "--asset", assets.joined(separator: ","), "--format", "csv"])
        #expect(result.status == 0, "\(result)")
        #expect(result.outputLines.dropFirst().map { String($0.prefix(while: { $0 != "," })) } == assets)
        #expect(server.peakConcurrentRequests <= 3)
        #expect(server.peakConcurrentRequests >= 2, "the fetches did not overlap at all")
    }

    @Test func redirectToAnotherOriginIsNotFollowed() throws {
        let elsewhere = try LoopbackHTTPServer { _, _ in .init(body: Self.spot("BTC", "USD", "666")) }
        defer { elsewhere.stop() }
        let server = try LoopbackHTTPServer { request, _ in
            .init(status: 302, headers: [("Location", "http://localhost:\(elsewhere.port)\(request.path)")])
        }
        defer { server.stop() }
        let sandbox = try Sandbox(config: Self.config(baseURL: server.baseURL), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--asset", "BTC"])
        #expect(result == CommandResult(status: 1, standardOutput: "", standardError: "pricehost: error: coinbase: 302 no error details (BTC-USD)\n"))
        #expect(elsewhere.requestCounts.isEmpty)
    }

    @Test func rateLimitHoldsAtTheServer() throws {
        let server = try LoopbackHTTPServer { request, _ in
            let base = request.path.split(separator: "/")[2].split(separator: "-")[0]
            return .init(body: Self.spot(String(base), "USD", "1"))
        }
        defer { server.stop() }
        let config = Self.config(baseURL: server.baseURL).replacingOccurrences(
            of: #""maxAttempts": 3"#, with: #""maxAttempts": 1, "requestsPerSecond": 5, "burst": 2"#)
        let sandbox = try Sandbox(config: config, files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let assets = (1...8).map { "R\($0)" }
        let result = try sandbox.run(["fetch", "--asset", assets.joined(separator: ","), "--format", "csv"])
        #expect(result.status == 0, "\(result)")
        let times = server.arrivalTimes
        #expect(times.count == 8)
        // A budget of 5 a second with a burst of 2: the n-th request (from 0) is sent no sooner
        // than (n - 1) / 5 s after the first two. Arrivals can only be late, never early; but the
        // first one's lateness (its connection's setup) shortens every gap measured from it: up to
        // 40 ms was seen with both cores busy, so 100 ms of the 200 are allowed for it. Without the
        // budget, all eight arrive within a few milliseconds, and the check fails by far.
        for (index, time) in times.enumerated() where index >= 2 {
            let earliest = Duration.milliseconds((index - 1) * 200 - 100)
            #expect(times[0].duration(to: time) >= earliest, "request \(index) arrived after \(times[0].duration(to: time))")
        }
    }
}
