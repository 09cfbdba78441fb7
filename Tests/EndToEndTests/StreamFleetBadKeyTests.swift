import Foundation
import Glibc
import PriceHostTesting
import Testing

/// A key of a streaming fleet set to the wrong type (or the counter to text) while quotes flow: Redis refuses the relay or
/// the lease, and the fleet counts it, logs it and repairs the key, so that every client on every
/// instance gets quotes again within 2 s. Debian's redis-server, a loopback venue, the built binary.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct StreamFleetBadKeyTests {
    /// The venue: BTC and ETH every 0.1 s for 20 s. Each connection's venue times are later than the
    /// last one's, so a hand-over's new connection is not dropped as older.
    static func venue() async throws -> StreamVenue {
        let start = Date()
        let connections = (0..<5).map { connection in
            [StreamVenue.Step.waitMessage, .send(CoinbaseFeed.subscriptions)] + (1...200).flatMap { index in
                let at = start.addingTimeInterval(Double(connection * 1000) + Double(index) / 10)
                return [StreamVenue.Step.send(CoinbaseFeed.ticker("64\(String(format: "%03d", index)).00", sequence: index, at: at)),
                        .send(CoinbaseFeed.ticker("3\(String(format: "%03d", index)).50", product: "ETH-USD", sequence: index, at: at)),
                        .sleep(0.1)]
            } + [.hold]
        }
        return try await StreamVenue.start(connections)
    }

    /// When the holder received an event from the venue (its `receivedAt`).
    static func receivedAt(_ event: (id: String?, rest: String)) -> Date? {
        guard let range = event.rest.range(of: #""receivedAt":""#) else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: String(event.rest[range.upperBound...].prefix { $0 != "\"" }))
    }

    /// Reads `connection`'s events until one the holder received after `moment`; returns when it was received.
    static func firstReceived(after moment: Date, on connection: LoopbackHTTPConnection) throws -> Date? {
        // Bounded: 100 reads, each within the connection's timeout.
        for _ in 0..<100 {
            for event in try StreamFleetTests.events(connection, count: 1) {
                if let received = receivedAt(event), received > moment { return received }
            }
        }
        return nil
    }

    @Test(arguments: [
        ("pricehost:stream:coinbase:events:BTC-USD", "list", ["SET", "pricehost:stream:coinbase:events:BTC-USD", "not a list"]),
        ("pricehost:stream:coinbase:holder", "string",
         ["EVAL", "redis.call('DEL', KEYS[1]) return redis.call('RPUSH', KEYS[1], 'not a token')", "1", "pricehost:stream:coinbase:holder"]),
        ("pricehost:stream:coinbase:pairs", "set", ["SET", "pricehost:stream:coinbase:pairs", "not a set"]),
        ("pricehost:stream:sequence", "string",
         ["EVAL", "redis.call('DEL', KEYS[1]) return redis.call('HSET', KEYS[1], 'not', 'a counter')", "1", "pricehost:stream:sequence"]),
        // The right type, but not a number: INCR refuses it as it refuses a hash.
        ("pricehost:stream:sequence", "string", ["SET", "pricehost:stream:sequence", "not a number"]),
    ])
    func aKeyOfTheWrongTypeIsCountedLoggedAndRepairedWhileQuotesFlow(key: String, kind: String, corrupt: [String]) async throws {
        try await StreamFleetTests.withFleet("StreamFleetBadKeyTests.\(#function)", instances: 2, venue: Self.venue) { fleet in
            let clients = try fleet.servers.map { try StreamFleetTests.subscribe($0) }
            for client in clients { _ = try StreamFleetTests.events(client, count: 3) }
            let holder = try #require(try fleet.holder())
            try fleet.redis.cli(corrupt)
            let corrupted = Date()
            // A pair asked for on the other instance after the corruption reaches the holder only through the pairs' set.
            let other = try fleet.servers[1 - holder].connect()
            try other.send("GET /v1/stream?asset=ETH HTTP/1.1\r\nHost: x\r\n\r\n")
            for (index, client) in (clients + [other]).enumerated() {
                let received = try #require(try Self.firstReceived(after: corrupted, on: client), "client \(index): \(key)")
                #expect(received.timeIntervalSince(corrupted) <= 2, "client \(index) waited \(received.timeIntervalSince(corrupted)) s: \(key)")
            }
            let type = try fleet.redis.cli(["TYPE", key])
            #expect(type == kind || type == "none", "\(key) is a \(type)")
            let logged = fleet.servers.map { server in
                server.process.errorLines.filter { $0.contains("deleted \(key), which held the wrong type or value; the fleet writes it again") }
            }
            #expect(logged.map(\.count).reduce(0, +) >= 1, "\(fleet.servers.map(\.process.standardError))")
            #expect(logged.allSatisfy { $0.count <= 1 }, "once per key a minute: \(logged)")
            let errors = try fleet.servers.map { ServeFleet.sample(try $0.get("/metrics").body, "pricehost_redis_errors_total") }
            #expect(errors.reduce(0, +) >= 1, "\(errors)")
            for (index, count) in errors.enumerated() where !logged[index].isEmpty { #expect(count >= 1, "instance \(index) logged but counted \(count)") }
        }
    }

    /// A refusal no key explains (here Redis refuses every write, wanting a replica it does not have):
    /// each instance streams alone, as when Redis is down, saying so once.
    @Test func whenRedisRefusesAndNothingCanBeRepairedEachInstanceStreamsAlone() async throws {
        try await StreamFleetTests.withFleet("StreamFleetBadKeyTests.\(#function)", instances: 2, venue: Self.venue) { fleet in
            let clients = try fleet.servers.map { try StreamFleetTests.subscribe($0) }
            for client in clients { _ = try StreamFleetTests.events(client, count: 3) }
            try fleet.redis.cli(["CONFIG", "SET", "min-replicas-to-write", "1"])
            let refused = Date()
            for (index, client) in clients.enumerated() {
                let received = try #require(try Self.firstReceived(after: refused, on: client), "client \(index)")
                #expect(received.timeIntervalSince(refused) <= 2, "client \(index) waited \(received.timeIntervalSince(refused)) s")
            }
            for server in fleet.servers {
                #expect(server.process.waitForErrorLine(containing: "and no key of the wrong type was found; streaming coinbase from this instance's own connection for 60 s",
                                                        within: 5) != nil, "\(server.process.standardError)")
                let metrics = try server.get("/metrics").body
                #expect(ServeFleet.sample(metrics, #"pricehost_stream_fleet_alone{provider="coinbase"}"#) == 1, "\(metrics)")
                #expect(ServeFleet.sample(metrics, "pricehost_redis_errors_total") >= 2)
            }
        }
    }
}
