import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// ETH-EUR, which neither venue quotes, derived from two loopback venues: Coinbase's ETH-USD over
/// Bitstamp's EUR-USD, through `fetch`, `watch` and `serve`'s `/v1/prices`.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct CrossRateEndToEndTests {
    /// The members before the quality ones (whatever `status` or `ageMs` the answer has) and the legs, last.
    static let ethEURStart = #"{"asset":"ETH","currency":"EUR","amount":"2878.14056447149972","provider":"cross","timestamp":"2023-11-14T22:13:20Z""#
    static let ethEUREnd = #","derivedFrom":[{"pair":"ETH-USD","provider":"coinbase","amount":"3120.48"},{"pair":"EUR-USD","provider":"bitstamp","amount":"1.0842"}]}"#

    /// Coinbase quotes ETH-USD and BTC-EUR, Bitstamp EUR-USD; anything else is a 404 at both.
    func withVenues(_ body: (Sandbox) throws -> Void) throws {
        let coinbase = try LoopbackHTTPServer { request, _ in
            switch request.path {
            case "/v2/prices/ETH-USD/spot": .init(body: #"{"data":{"base":"ETH","currency":"USD","amount":"3120.48"}}"#)
            case "/v2/prices/BTC-EUR/spot": .init(body: #"{"data":{"base":"BTC","currency":"EUR","amount":"84150.5"}}"#)
            default: .init(status: 404, body: #"{"errors":[{"id":"not_found","message":"Invalid base currency"}]}"#)
            }
        }
        defer { coinbase.stop() }
        let bitstamp = try LoopbackHTTPServer { request, _ in
            switch request.path {
            case "/api/v2/ticker/eurusd/": .init(body: #"{"last": "1.0842", "timestamp": "1700000000", "bid": "1.0841", "ask": "1.0843"}"#)
            default: .init(status: 404, body: "<html><body><h1>Not Found</h1></body></html>")
            }
        }
        defer { bitstamp.stop() }
        let quick = #""timeoutSeconds": 2, "maxAttempts": 1"#
        let sandbox = try Sandbox(config: """
            {
              "plugins": ["libCoinbaseProvider.so", "libBitstampProvider.so"],
              "providers": {
                "coinbase": {"baseURL": "\(coinbase.baseURL)", \(quick)},
                "bitstamp": {"baseURL": "\(bitstamp.baseURL)", \(quick)}
              },
              "defaults": {"provider": "coinbase"},
              "assets": {"EUR": {"provider": "bitstamp"}},
              "crossVia": ["USD"],
              "store": {"enabled": false}
            }
            """)
        defer { sandbox.remove() }
        try body(sandbox)
    }

    @Test func fetchDerivesThePairWithItsExactDigitsAndLegs() throws {
        try withVenues { sandbox in
            let result = try sandbox.run(["fetch", "--asset", "ETH", "--currency", "EUR", "--format", "json"])
            #expect(result.status == 0, "\(result)")
            #expect(result.standardError == "")
            let line = try #require(result.outputLines.first)
            #expect(result.outputLines.count == 1)
            #expect(line.hasPrefix(Self.ethEURStart), "\(line)")
            #expect(withoutAges(line).hasSuffix(Self.ethEUREnd), "\(line)")
            // Text keeps its columns: the provider is "cross".
            let text = try sandbox.run(["fetch", "--asset", "ETH", "--currency", "EUR"])
            #expect(text.standardOutput == "ETH-EUR  2878.14056447149972  cross  2023-11-14T22:13:20Z\n", "\(text)")
        }
    }

    @Test func aDirectQuoteWins() throws {
        try withVenues { sandbox in
            let result = try sandbox.run(["fetch", "--asset", "BTC", "--currency", "EUR", "--format", "json"])
            #expect(result.status == 0, "\(result)")
            #expect(result.outputLines.first?.hasPrefix(#"{"asset":"BTC","currency":"EUR","amount":"84150.5","provider":"coinbase","#) == true, "\(result)")
            #expect(result.standardOutput.contains("derivedFrom") == false)
        }
    }

    @Test func anUnderivablePairIsTheUsualErrorNamingTheBridges() throws {
        try withVenues { sandbox in
            let result = try sandbox.run(["fetch", "--asset", "ETH,DOGE", "--currency", "EUR"])
            #expect(result.status == 4, "\(result)")
            #expect(result.outputLines.first?.hasPrefix("ETH-EUR  2878.14056447149972  cross") == true, "\(result)")
            let error = try #require(result.errorLines.first)
            #expect(error.hasPrefix("pricehost: error: coinbase: "), "\(error)")
            #expect(error.contains("DOGE-EUR"), "\(error)")
            #expect(error.hasSuffix("; no cross rate: via USD, missing DOGE-USD (coinbase)"), "\(error)")
        }
    }

    @Test func watchPrintsTheLegsToo() throws {
        try withVenues { sandbox in
            let result = try sandbox.run(["watch", "--asset", "ETH", "--currency", "EUR", "--format", "json", "--ticks", "1"])
            #expect(result.status == 0, "\(result)")
            let line = try #require(result.outputLines.first)
            #expect(line.hasPrefix(Self.ethEURStart), "\(line)")
            #expect(withoutAges(line).hasSuffix(Self.ethEUREnd), "\(line)")
        }
    }

    @Test func servesPricesPrintTheLegsToo() throws {
        try withVenues { sandbox in
            let server = try ServeProcess(sandbox)
            defer { server.stop() }
            let reply = try server.get("/v1/prices?asset=ETH&currency=EUR")
            #expect(reply.status == 200, "\(reply)")
            #expect(reply.body.hasPrefix("[" + Self.ethEURStart), "\(reply)")
            #expect(withoutAges(reply.body).hasSuffix(Self.ethEUREnd + "]"), "\(reply)")
        }
    }

    @Test func aCrossViaThatIsNotAListOfCodesIsAConfigError() throws {
        let sandbox = try Sandbox(config: #"{"crossVia": ["USD", 7]}"#)
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--asset", "ETH", "--provider", "file"])
        #expect(result == CommandResult(status: 3, standardOutput: "", standardError: """
            pricehost: error: \(sandbox.configPath): crossVia[1]: expected a string, found a number

            """))
    }
}
