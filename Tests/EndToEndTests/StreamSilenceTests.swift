import Foundation
import Glibc
import PriceHostTesting
import Testing

/// A venue that acknowledges each subscription and then sends nothing, not even a heartbeat:
/// `serve` must treat it as stale throughout (REST polling without a gap, `pricehost_stream_state`
/// never 1, no "recovered" line) until a price finally arrives. Run against the built binary.
@Suite(.timeLimit(.minutes(2)))
struct StreamSilenceTests {
    /// One `/v1/stream` event's fields: its source, its amount and when pricehost received it.
    struct Event {
        var source: String
        var amount: String
        var receivedAt: Date
    }

    static func parse(_ text: String) -> [Event] {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return ServeStreamTests.events(text).compactMap { event in
            guard let data = event.rest.split(separator: "\n").first(where: { $0.hasPrefix("data: ") }),
                  let object = (try? JSONSerialization.jsonObject(with: Data(data.dropFirst(6).utf8))) as? [String: Any],
                  let source = object["source"] as? String, let amount = object["amount"] as? String,
                  let received = (object["receivedAt"] as? String).flatMap(formatter.date(from:)) else { return nil }
            return Event(source: source, amount: amount, receivedAt: received)
        }
    }

    @Test func anAcknowledgementWithoutPricesNeverMakesAStaleFeedLive() async throws {
        guard await StreamVenue.available(for: "StreamSilenceTests.\(#function)") else { return }
        let silent: [StreamVenue.Step] = [.waitMessage, .send(CoinbaseFeed.subscriptions), .hold]
        // Connections 1 to 4 acknowledge and stay silent (three reconnects); the fifth speaks half a second after its
        // acknowledgement, with a venue time later than the REST quotes' (an older one would be dropped as out of order).
        let speaking: [StreamVenue.Step] = [.waitMessage, .send(CoinbaseFeed.subscriptions), .sleep(0.5),
                                            .send(CoinbaseFeed.ticker("64000.10", sequence: 1, at: Date().addingTimeInterval(600))), .hold]
        let venue = try await StreamVenue.start([silent, silent, silent, silent, speaking])
        defer { venue.stop() }
        // Each REST answer differs, so that none is dropped as a repeat.
        let rest = try LoopbackHTTPServer { request, count in
            request.path == "/v2/prices/BTC-USD/spot"
                ? .init(body: #"{"data":{"base":"BTC","currency":"USD","amount":"\#(15_000 + count).01"}}"#)
                : .init(status: 404, body: "{}")
        }
        defer { rest.stop() }
        let fallback = 0.5
        let sandbox = try StreamSandbox(provider: "coinbase", plugin: "libCoinbaseProvider.so", streamURL: venue.url(), restURL: rest.baseURL,
                                        settings: #", "staleAfterSeconds": 1, "fallbackIntervalSeconds": \#(fallback)"#)
        defer { sandbox.remove() }
        try await offThePool {
            let server = try ServeProcess(sandbox.sandbox)
            defer { server.stop() }
            let client = try StreamServeTests.subscribe(server, "asset=BTC")
            var states: [Int] = []
            // Until the fifth connection (whose price comes half a second later); bounded: 40 s in steps of 50 ms.
            for _ in 0..<800 where venue.connections < 5 {
                states.append(ServeFleet.sample(try server.get("/metrics").body, #"pricehost_stream_state{provider="coinbase"}"#))
                usleep(50_000)
            }
            #expect(venue.connections >= 5, "\(venue.server.log)\n\(server.process.standardError)")
            #expect(!states.contains(1), "the state read 1 (live) with no price: \(states)")
            #expect(states.contains(2), "\(states)")

            let events = Self.parse(try client.read(until: "64000.1"))
            let restTimes = events.filter { $0.source == "rest" }.map(\.receivedAt)
            #expect(restTimes.count >= 10, "\(events)")
            for (earlier, later) in zip(restTimes, restTimes.dropFirst()) {
                #expect(later.timeIntervalSince(earlier) <= fallback + 0.5, "a gap in REST polling: \(earlier) to \(later)")
            }
            let price = try #require(events.last)
            #expect(price.source == "stream" && price.amount == "64000.1", "\(events)")
            if let lastRest = restTimes.last { #expect(price.receivedAt.timeIntervalSince(lastRest) <= fallback + 0.5) }

            #expect(server.process.waitForErrorLine(containing: "coinbase: the feed recovered; REST polling stopped", within: 5) != nil)
            let errors = server.process.errorLines
            // One recovery, on the one price: a feed called live on an acknowledgement would recover on each of the
            // four silent connections. Before it, one stale line for the whole silence. (After it the venue is silent
            // again, and a second stale line a second later is right; a loaded machine may take that long to look.)
            #expect(errors.filter { $0.contains("the feed recovered") }.count == 1, "\(errors)")
            let recovery = errors.firstIndex { $0.contains("the feed recovered") } ?? errors.endIndex
            #expect(errors[..<recovery].filter { $0.contains("the feed is stale") }.count == 1, "\(errors)")
            // Each reconnect has its own line with its backoff: a stale connection closed, or (on a loaded
            // machine) a handshake that timed out.
            #expect(errors.filter { $0.contains("reconnecting in") }.count >= 4, "\(errors)")
        }
    }

    /// The same rule for the fleet's holder: a holder whose venue acknowledges and stays silent is stale,
    /// not serving the fleet, and lets the lease go to the other instance; meanwhile REST serves.
    @Test func aFleetHolderWhoseVenueOnlyAcknowledgesLetsTheLeaseGo() async throws {
        let silent = { try await StreamVenue.start([[.waitMessage, .send(CoinbaseFeed.subscriptions), .hold]]) }
        let upstream = try ServeFleet.upstream()
        defer { upstream.stop() }
        let settings = #""baseURL": "\#(upstream.baseURL)", "staleAfterSeconds": 1, "fallbackIntervalSeconds": 0.5"#
        try await StreamFleetTests.withFleet("StreamSilenceTests.\(#function)", instances: 2, venue: silent, coinbase: settings) { fleet in
            let clients = try fleet.servers.map { try StreamFleetTests.subscribe($0) }
            var first: Int?
            var states: [Int] = []
            // Bounded: 20 s in steps of 50 ms, until the first holder has let go and the other holds the feed.
            for _ in 0..<400 {
                for server in fleet.servers {
                    states.append(ServeFleet.sample(try server.get("/metrics").body, #"pricehost_stream_state{provider="coinbase"}"#))
                }
                let holder = try fleet.holder()
                if first == nil { first = holder }
                if let first, let holder, holder != first { break }
                usleep(50_000)
            }
            let letGo = try #require(first)
            #expect(try fleet.holder() == 1 - letGo, "the holder of a silent feed kept the lease:\n\(fleet.servers[letGo].process.standardError)")
            #expect(fleet.servers[letGo].process.errorLines.contains { $0.contains("shared: coinbase's feed stayed stale on this instance; letting another instance take it") })
            #expect(!states.contains(1), "a feed with no price read live: \(states)")
            // Both instances' clients got REST's quotes through the fleet meanwhile.
            for client in clients {
                let events = try StreamFleetTests.events(client, count: 1)
                #expect(events.allSatisfy { $0.rest.contains(#""source":"rest""#) && $0.rest.contains(#""amount":"91234.56""#) }, "\(events)")
            }
        }
    }
}
