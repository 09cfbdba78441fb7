import Foundation
import PriceHostTestTraits
import PriceHostTesting
import Testing

/// `pricehost watch --stream` against a loopback venue (Python's `websockets`) speaking
/// Coinbase Exchange's feed, through each failure a feed meets: silence and the REST
/// fallback, disconnects, close codes, hostile frames, gaps, refusals and hand-overs.
/// Each scenario runs the built binary as a user would, off the cooperative pool.
@Suite(.offThePool, .timeLimit(.minutes(2)))
struct StreamFailureTests {
    typealias Step = StreamVenue.Step

    /// What one scenario left: the JSON lines printed, stderr, and the venue's log.
    struct Outcome: Sendable {
        var output: [String]
        var errors: [String]
        var venueLog: String
        var connections: Int

        var lines: [[String: Any]] { output.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] } }
        var amounts: [String] { lines.compactMap { $0["amount"] as? String } }
        var sources: [String] { lines.compactMap { $0["source"] as? String } }
        func warned(_ text: String) -> Bool { errors.contains { $0.contains(text) } }
    }

    /// Runs `watch --stream --asset BTC --provider coinbase` against `connections` until `done`
    /// holds for the amounts printed (at most `seconds`), then stops it with SIGTERM.
    static func scenario(_ connections: [[Step]], settings: String = "", restURL: String = "http://127.0.0.1:9",
                         within seconds: Double = 20, until done: @escaping @Sendable ([String]) -> Bool) async throws -> Outcome {
        let venue = try await StreamVenue.start(connections)
        defer { venue.stop() }
        let sandbox = try StreamSandbox(provider: "coinbase", plugin: "libCoinbaseProvider.so", streamURL: venue.url(),
                                        restURL: restURL, settings: settings)
        defer { sandbox.remove() }
        return try await offThePool {
            let watch = try sandbox.startWatch(["--asset", "BTC", "--provider", "coinbase"])
            _ = watch.waitForOutput(within: seconds) { lines in
                done(lines.compactMap { line in
                    ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["amount"] as? String
                })
            }
            let status = watch.terminate()
            #expect(status == 0, "watch --stream ended with \(String(describing: status)); stderr:\n\(watch.standardError)")
            return Outcome(output: watch.outputLines, errors: watch.errorLines, venueLog: venue.server.log, connections: venue.connections)
        }
    }

    static let start = Date()
    static func at(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }
    static func tick(_ price: String, _ sequence: Int, _ seconds: Double) -> Step {
        .send(CoinbaseFeed.ticker(price, sequence: sequence, at: at(seconds)))
    }

    @Test func silenceFallsBackToRESTClosesTheStaleConnectionAndRecovers() async throws {
        guard await StreamVenue.available(for: "StreamFailureTests.\(#function)") else { return }
        let rest = try LoopbackHTTPServer { request, _ in
            request.path == "/v2/prices/BTC-USD/spot" ? .init(body: #"{"data":{"base":"BTC","currency":"USD","amount":"15840.01"}}"#)
                                                      : .init(status: 404, body: "{}")
        }
        defer { rest.stop() }
        // The first connection goes silent; the second (after the stale one is closed) speaks again, later, but
        // within staleAfterSeconds of opening (a connection that brings no price in that time is closed too).
        let outcome = try await Self.scenario([
            [.waitMessage, .send(CoinbaseFeed.subscriptions), Self.tick("64000.10", 1, 0), .hold],
            [.waitMessage, .send(CoinbaseFeed.subscriptions), .sleep(0.4), Self.tick("64005.00", 2, 600), .hold],
        ], settings: #", "staleAfterSeconds": 1, "fallbackIntervalSeconds": 0.3"#, restURL: rest.baseURL) { amounts in
            amounts.contains("64005")
        }
        #expect(outcome.amounts.first == "64000.1")
        #expect(outcome.amounts.last == "64005")
        #expect(outcome.amounts.contains("15840.01"), "no REST quote while stale: \(outcome.amounts)")
        // What each line says of its source, in order: stream, then REST while stale, then stream again.
        let sources = outcome.sources
        #expect(sources.first == "stream" && sources.last == "stream" && sources.dropFirst().dropLast().allSatisfy { $0 == "rest" }, "\(sources)")
        #expect(outcome.warned("coinbase: the feed is stale: no price or heartbeat for 1 s; polling REST every 0.3 s until it recovers"), "\(outcome.errors)")
        #expect(outcome.warned("coinbase: the feed recovered; REST polling stopped"), "\(outcome.errors)")
        // The stale connection was closed by the client, not left beside the fallback.
        #expect(outcome.venueLog.contains("CLOSED 1 1000"), "\(outcome.venueLog)")
        for line in outcome.lines where line["source"] as? String == "rest" { #expect(line["provider"] as? String == "coinbase") }
    }

    @Test func aDroppedConnectionIsReopenedAfterBackoff() async throws {
        guard await StreamVenue.available(for: "StreamFailureTests.\(#function)") else { return }
        let outcome = try await Self.scenario([
            [.waitMessage, Self.tick("64000.10", 1, 0), .sleep(0.2), .drop],
            [.waitMessage, Self.tick("64001.25", 2, 1), .hold],
        ]) { $0.contains("64001.25") }
        #expect(outcome.amounts == ["64000.1", "64001.25"])
        #expect(outcome.connections == 2)
        #expect(outcome.warned("coinbase: the feed's connection ended:"), "\(outcome.errors)")
        #expect(outcome.warned("reconnecting in 0."), "the first retry waits 0.375 to 0.5 s: \(outcome.errors)")
    }

    @Test func aCloseFrameIsReportedWithItsCodeAndReasonAndReconnected() async throws {
        guard await StreamVenue.available(for: "StreamFailureTests.\(#function)") else { return }
        let outcome = try await Self.scenario([
            [.waitMessage, Self.tick("64000.10", 1, 0), .close(1001, "maintenance")],
            [.waitMessage, Self.tick("64001.25", 2, 1), .hold],
        ]) { $0.contains("64001.25") }
        #expect(outcome.amounts == ["64000.1", "64001.25"])
        #expect(outcome.warned("the venue closed the connection (1001 maintenance)"), "\(outcome.errors)")
    }

    @Test(arguments: [
        ("an oversized message", [Step.big(4096)], "closing with 1009"),
        ("text that is not UTF-8", [Step.raw("8102c328")], "closing with 1007"),
        ("a masked frame", [Step.raw("818200000000" + "6869")], "closing with 1002"),
        ("a reserved bit", [Step.raw("c1026869")], "closing with 1002"),
        ("a flood of pings", [Step.pings(200)], "closing with 1008"),
    ] as [(String, [Step], String)])
    func aHostileFrameEndsThatConnectionWithAWarningAndAReconnect(what: String, hostile: [Step], warning: String) async throws {
        guard await StreamVenue.available(for: "StreamFailureTests.\(#function)") else { return }
        let outcome = try await Self.scenario([
            [.waitMessage, Self.tick("64000.10", 1, 0), .sleep(0.1)] + hostile + [.hold],
            [.waitMessage, Self.tick("64001.25", 2, 1), .hold],
        ], settings: #", "maxMessageBytes": 2048"#) { $0.contains("64001.25") }
        #expect(outcome.amounts == ["64000.1", "64001.25"], "\(what)")
        #expect(outcome.connections == 2, "\(what)")
        #expect(outcome.warned(warning), "\(what): \(outcome.errors)")
    }

    @Test func aFragmentedMessageAndPingsAreHandledOnOneConnection() async throws {
        guard await StreamVenue.available(for: "StreamFailureTests.\(#function)") else { return }
        let ticker = CoinbaseFeed.ticker("64000.10", sequence: 1, at: Self.at(0))
        let middle = ticker.index(ticker.startIndex, offsetBy: ticker.count / 2)
        let outcome = try await Self.scenario([
            [.waitMessage, .pings(5), .fragments([String(ticker[..<middle]), String(ticker[middle...])]), .pings(5),
             Self.tick("64001.25", 2, 1), .hold],
        ]) { $0.contains("64001.25") }
        #expect(outcome.amounts == ["64000.1", "64001.25"])
        #expect(outcome.connections == 1)
        #expect(!outcome.warned("reconnecting"), "\(outcome.errors)")
    }

    @Test func aSequenceGapIsCountedAndWarnedAndItsQuoteStillFlows() async throws {
        guard await StreamVenue.available(for: "StreamFailureTests.\(#function)") else { return }
        let outcome = try await Self.scenario([
            [.waitMessage, Self.tick("64000.10", 1, 0), Self.tick("64001.25", 2, 1), Self.tick("64002.50", 5, 2), .hold],
        ]) { $0.contains("64002.5") }
        #expect(outcome.amounts == ["64000.1", "64001.25", "64002.5"])
        #expect(outcome.warned("coinbase: feed sequence gap of BTC-USD: expected 3, got 5"), "\(outcome.errors)")
    }

    @Test func aQuoteOlderThanTheLastEmittedOrARepeatedSequenceIsDropped() async throws {
        guard await StreamVenue.available(for: "StreamFailureTests.\(#function)") else { return }
        let outcome = try await Self.scenario([
            [.waitMessage, Self.tick("64000.10", 1, 2), Self.tick("63000.00", 2, 1), Self.tick("63500.00", 2, 3),
             Self.tick("64002.50", 3, 4), .hold],
        ]) { $0.contains("64002.5") }
        // 63000 is older than 64000.10; 63500 repeats sequence 2.
        #expect(outcome.amounts == ["64000.1", "64002.5"])
    }

    @Test func aRefusedSubscriptionIsWarnedAndRetried() async throws {
        guard await StreamVenue.available(for: "StreamFailureTests.\(#function)") else { return }
        let refusal = #"{"type":"error","message":"Failed to subscribe","reason":"BTC-USD is delisted"}"#
        let outcome = try await Self.scenario([
            [.waitMessage, .send(refusal), .hold],
            [.waitMessage, Self.tick("64001.25", 2, 1), .hold],
        ]) { $0.contains("64001.25") }
        #expect(outcome.amounts == ["64001.25"])
        #expect(outcome.connections == 2)
        #expect(outcome.warned("the venue reported an error: Failed to subscribe"), "\(outcome.errors)")
    }

    /// A connection at its lifetime (Binance's 24 h, made 2 s here) is replaced by a new one
    /// that goes live first: the old one closes only after that, and no update is lost or doubled.
    @Test func aConnectionAtItsLifetimeIsHandedOverWithoutLosingAnUpdate() async throws {
        guard await StreamVenue.available(for: "StreamFailureTests.\(#function)") else { return }
        let first = (1...6).flatMap { index in [Self.tick("6400\(index).00", index, Double(index)), Step.sleep(0.4)] }
        let second = (5...8).map { index in Self.tick("6400\(index).00", index, Double(index)) }
        let outcome = try await Self.scenario([
            [.waitMessage] + first + [.hold],
            [.waitMessage, .send(CoinbaseFeed.subscriptions)] + second + [.hold],
        ], settings: #", "streamLifetimeSeconds": 2"#) { $0.contains("64008") }
        #expect(outcome.amounts == (1...8).map { "6400\($0)" })
        let log = outcome.venueLog
        let opened = try #require(log.range(of: "CONNECTED 2"), "\(log)")
        let closed = try #require(log.range(of: "CLOSED 1"), "\(log)")
        #expect(opened.lowerBound < closed.lowerBound, "the old connection closed before the new one opened:\n\(log)")
    }

    @Test func aProviderWithoutAFeedIsAUsageErrorNamingThoseWithOne() async throws {
        let sandbox = try Sandbox(config: """
            {"plugins": ["libCoinGeckoProvider.so", "libCoinbaseProvider.so"], "defaults": {"provider": "coingecko"}}
            """)
        defer { sandbox.remove() }
        let result = try await offThePool { try sandbox.run(["watch", "--stream", "--asset", "BTC", "--provider", "coingecko"]) }
        #expect(result == CommandResult(status: 2, standardOutput: "", standardError:
            "pricehost: error: watch --stream: coingecko has no WebSocket feed (providers with a feed: coinbase); watch it without --stream to poll\n"))
    }
}
