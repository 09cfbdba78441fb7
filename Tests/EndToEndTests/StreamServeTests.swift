import Foundation
import PriceHostTesting
import Testing

/// `serve` with `"stream": true`: `/v1/stream` pushes from the venue's feed, one upstream
/// connection serving every client, each event with an SSE id, `Last-Event-ID` resuming
/// from what the instance kept, and the feed's state in `/metrics`.
@Suite(.timeLimit(.minutes(2)))
struct StreamServeTests {
    static let start = Date()

    /// The venue: the subscriptions acknowledgement, then BTC at 64000.01, 64000.02 … every `every` seconds.
    static func venue(count: Int, every seconds: Double) async throws -> StreamVenue {
        let ticks = (1...count).flatMap { index in
            [StreamVenue.Step.send(CoinbaseFeed.ticker(String(format: "64000.%02d", index), sequence: index, at: start.addingTimeInterval(Double(index)))),
             .sleep(seconds)]
        }
        return try await StreamVenue.start([[.waitMessage, .send(CoinbaseFeed.subscriptions)] + ticks + [.hold]])
    }

    static func sandbox(_ venue: StreamVenue) throws -> StreamSandbox {
        try StreamSandbox(provider: "coinbase", plugin: "libCoinbaseProvider.so", streamURL: venue.url())
    }

    static func subscribe(_ server: ServeProcess, _ query: String, lastEventID: String? = nil) throws -> LoopbackHTTPConnection {
        let connection = try server.connect()
        let resume = lastEventID.map { "Last-Event-ID: \($0)\r\n" } ?? ""
        try connection.send("GET /v1/stream?\(query) HTTP/1.1\r\nHost: x\r\n\(resume)\r\n")
        return connection
    }

    @Test func everyClientIsServedFromOneUpstreamConnectionWithTheSameEventsAndIds() async throws {
        guard await StreamVenue.available(for: "StreamServeTests.\(#function)") else { return }
        let venue = try await Self.venue(count: 12, every: 0.15)
        defer { venue.stop() }
        let sandbox = try Self.sandbox(venue)
        defer { sandbox.remove() }
        try await offThePool {
            let server = try ServeProcess(sandbox.sandbox)
            defer { server.stop() }
            let clients = try (0..<3).map { _ in try Self.subscribe(server, "asset=BTC") }
            let texts = try clients.map { try $0.read(until: "64000.08", count: 1) }
            let streams = texts.map { ServeStreamTests.events($0).filter { $0.rest.contains("64000.0") } }
            // Each has an id; the events every client got in common are the same events with the same ids.
            for stream in streams { #expect(!stream.isEmpty && stream.allSatisfy { $0.id != nil }) }
            let sets = streams.map { Set($0.map { "\($0.id ?? "")|\($0.rest)" }) }
            let common = sets.dropFirst().reduce(sets.first ?? []) { $0.intersection($1) }
            #expect(common.count >= 3, "\(streams)")
            let first = try #require(streams.first?.last?.rest)
            #expect(first.contains(#""source":"stream""#) && first.contains(#""receivedAt":""#) && first.contains(#""provider":"coinbase""#), "\(first)")
            #expect(venue.connections == 1, "\(venue.server.log)")
            let metrics = try server.get("/metrics").body
            #expect(metrics.contains(#"pricehost_stream_state{provider="coinbase"} 1"#), "\(metrics)")
            #expect(metrics.contains(#"pricehost_stream_reconnects_total{provider="coinbase"} 0"#))
            #expect(metrics.contains(#"pricehost_stream_quote_age_seconds_count{provider="coinbase"}"#))
            let messages = metrics.split(separator: "\n").first { $0.hasPrefix(#"pricehost_stream_messages_total{provider="coinbase"}"#) }
            #expect((messages?.split(separator: " ").last.flatMap { Int($0) } ?? 0) >= 8, "\(metrics)")
        }
    }

    @Test func eachEventCarriesTheVenuesBidAndAskExactlyAfterItsOtherMembers() async throws {
        guard await StreamVenue.available(for: "StreamServeTests.\(#function)") else { return }
        // Coinbase's recorded feed: BTC's tickers, with their best_bid and best_ask as Coinbase wrote them.
        let venue = try await StreamVenue.start([[.waitMessage, .play("coinbase.jsonl", every: 0.1), .hold]])
        defer { venue.stop() }
        let sandbox = try Self.sandbox(venue)
        defer { sandbox.remove() }
        try await offThePool {
            let server = try ServeProcess(sandbox.sandbox)
            defer { server.stop() }
            let client = try Self.subscribe(server, "asset=BTC")
            var text = try client.read(until: #""amount":"64001.8""#, count: 1)
            if let last = text.range(of: #""amount":"64001.8""#), !text[last.upperBound...].contains("\n\n") {
                text += try client.read(until: "\n\n", count: 1)  // the rest of that event
            }
            let events = ServeStreamTests.events(text).filter { $0.rest.contains(#""source":"stream""#) }
            let sides = ["64000.1": #","bid":"64000.09","ask":"64000.1","status":"live"}"#, "64001.25": #","bid":"64001.24","ask":"64001.25","status":"live"}"#,
                         "64002.5": #","bid":"64002.49","ask":"64002.5","status":"live"}"#, "64001.8": #","bid":"64001.8","ask":"64001.81","status":"live"}"#]
            #expect(!events.isEmpty)
            for event in events {
                let amount = try #require(sides.keys.first { event.rest.contains(#""amount":"\#($0)","provider":"coinbase""#) }, "\(event)")
                #expect(withoutAges(event.rest).hasSuffix(try #require(sides[amount])), "\(event)")
            }
        }
    }

    @Test func aClientReconnectingWithLastEventIDGetsThePushedEventsItMissed() async throws {
        guard await StreamVenue.available(for: "StreamServeTests.\(#function)") else { return }
        let venue = try await Self.venue(count: 20, every: 0.1)
        defer { venue.stop() }
        let sandbox = try Self.sandbox(venue)
        defer { sandbox.remove() }
        try await offThePool {
            let server = try ServeProcess(sandbox.sandbox)
            defer { server.stop() }
            let watcher = try Self.subscribe(server, "asset=BTC")
            var seen = ServeStreamTests.events(try watcher.read(until: "}\n\n", count: 1))
            // A client reads one event and leaves.
            let last: String = try {
                let leaving = try Self.subscribe(server, "asset=BTC")
                return try #require(ServeStreamTests.events(try leaving.read(until: "}\n\n", count: 1)).last?.id)
            }()
            for _ in 0..<50 {
                let ids = seen.compactMap(\.id)
                if let index = ids.firstIndex(of: last), ids.count - index > 3 { break }
                seen += ServeStreamTests.events(try watcher.read(until: "}\n\n", count: 1))
            }
            let ids = seen.compactMap(\.id)
            let index = try #require(ids.firstIndex(of: last), "the watcher never saw \(last): \(ids)")
            let missed = Array(seen[(index + 1)...])
            let back = try Self.subscribe(server, "asset=BTC", lastEventID: last)
            let resumed = ServeStreamTests.events(try back.read(until: "}\n\n", count: missed.count))
            for (got, expected) in zip(resumed, missed) {
                #expect(got.id == expected.id && got.rest == expected.rest, "got \(got), expected \(expected)")
            }
            #expect(venue.connections == 1)
        }
    }
}
