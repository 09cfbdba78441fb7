import Foundation
import Glibc
import PriceHostTesting
import Testing

/// A fleet that streams (`serve` with `shared.redis` and `"stream": true`): one upstream
/// connection per venue for the whole fleet, fanned out through Redis, on Debian's
/// redis-server and a loopback venue (Python's `websockets`).
@Suite(.timeLimit(.minutes(3)))
struct StreamFleetTests {
    /// The venue: every connection acknowledges, then BTC ticks every 0.1 s for 20 s, each later than the last.
    static func venue() async throws -> StreamVenue {
        let start = Date()
        let ticks = (1...200).flatMap { index in
            [StreamVenue.Step.send(CoinbaseFeed.ticker("64\(String(format: "%03d", index)).00", sequence: index,
                                                       at: start.addingTimeInterval(Double(index) / 10))), .sleep(0.1)]
        }
        return try await StreamVenue.start([[.waitMessage, .send(CoinbaseFeed.subscriptions)] + ticks + [.hold]])
    }

    /// The instances and what they share; `nil` (said why) without redis-server.
    struct Fleet {
        let redis: RedisServer
        let venue: StreamVenue
        let sandbox: Sandbox
        let servers: [ServeProcess]

        func stop() {
            servers.forEach { $0.stop() }
            venue.stop()
            sandbox.remove()
        }

        /// Which instance holds the feed, by /metrics; `nil` when none says so.
        func holder() throws -> Int? {
            try servers.indices.first { index in
                ServeFleet.sample(try servers[index].get("/metrics").body, #"pricehost_stream_fleet_holder{provider="coinbase"}"#) == 1
            }
        }

        /// Connections the venue has open now.
        var openConnections: Int {
            venue.server.lines(startingWith: "CONNECTED ").count - venue.server.lines(startingWith: "CLOSED ").count
        }
    }

    /// - Parameters:
    ///   - coinbase: the provider's settings besides the stream's.
    ///   - extra: more top-level members of the config, after a comma (a `store`); by default the store is off.
    static func fleet(instances: Int, venue: StreamVenue, coinbase: String = #""baseURL": "http://127.0.0.1:9""#,
                      extra: String = #", "store": {"enabled": false}"#) throws -> Fleet? {
        guard let redis = try ServeFleet.startRedis() else { return nil }
        let sandbox = try Sandbox(config: """
            {"plugins": ["libCoinbaseProvider.so"],
             "providers": {"coinbase": {\(coinbase), "maxAttempts": 1, "stream": true, "streamURL": "\(venue.url())"}},
             "defaults": {"provider": "coinbase"},
             "shared": {"redis": "\(redis.url)"\(ServeFleet.patient)}\(extra)}
            """)
        var servers: [ServeProcess] = []
        do {
            for _ in 0..<instances { servers.append(try ServeProcess(sandbox, environment: ["PRICEHOST_LOG": "info"])) }
            try servers.forEach(ServeFleet.waitUntilShared)
        } catch {
            servers.forEach { $0.stop() }
            sandbox.remove()
            throw error
        }
        return Fleet(redis: redis, venue: venue, sandbox: sandbox, servers: servers)
    }

    /// Runs `body` off the cooperative pool on a fleet of `instances` streaming from the venue `makeVenue`
    /// starts, and stops them after; skips, saying why, without Python's `websockets` or redis-server.
    static func withFleet(_ test: String, instances: Int, venue makeVenue: () async throws -> StreamVenue,
                          coinbase: String = #""baseURL": "http://127.0.0.1:9""#, _ body: @escaping @Sendable (Fleet) throws -> Void) async throws {
        guard await StreamVenue.available(for: test) else { return }
        let venue = try await makeVenue()
        defer { venue.stop() }
        try await offThePool {
            guard let fleet = try Self.fleet(instances: instances, venue: venue, coinbase: coinbase) else { return }
            defer { fleet.stop() }
            try body(fleet)
        }
    }

    /// A client of `leaving` reads two events and leaves, while a client of `watching` reads on until
    /// three more have come after the last one the other read: that id, and the events after it.
    static func missedEvents(leaving: ServeProcess, watching: ServeProcess) throws -> (last: String, missed: [(id: String?, rest: String)]) {
        let watcher = try subscribe(watching)
        var seen = try events(watcher, count: 1)
        let last = try #require(try events(try subscribe(leaving), count: 2).last?.id)
        // Bounded: at most 50 reads.
        for _ in 0..<50 {
            let ids = seen.compactMap(\.id)
            if let index = ids.firstIndex(of: last), ids.count - index > 3 { break }
            seen += try events(watcher, count: 1)
        }
        let ids = seen.compactMap(\.id)
        let index = try #require(ids.firstIndex(of: last), "the watcher never showed \(last): \(ids)")
        return (last, Array(seen[(index + 1)...]))
    }

    /// The sequence of an id `EPOCH-N`.
    static func number(_ id: String) -> Int {
        id.split(separator: "-").last.flatMap { Int($0) } ?? 0
    }

    static func subscribe(_ server: ServeProcess, lastEventID: String? = nil) throws -> LoopbackHTTPConnection {
        let connection = try server.connect()
        let resume = lastEventID.map { "Last-Event-ID: \($0)\r\n" } ?? ""
        try connection.send("GET /v1/stream?asset=BTC HTTP/1.1\r\nHost: x\r\n\(resume)\r\n")
        return connection
    }

    /// Reads events until `count` prices have arrived: a status event (a feed gone stale for a moment under load)
    /// ends as a price does and is not one. Bounded: each read by the connection's timeout, at most 10 reads.
    static func events(_ connection: LoopbackHTTPConnection, count: Int) throws -> [(id: String?, rest: String)] {
        var text = ""
        var prices: [(id: String?, rest: String)] = []
        for _ in 0..<10 where prices.count < count {
            text += try connection.read(until: "}\n\n", count: count - prices.count)
            prices = ServeStreamTests.events(text).filter { $0.rest.contains(#""amount""#) }
        }
        return prices
    }

    @Test func fourInstancesShareOneUpstreamConnectionAndShowTheSameEventsWithTheSameIds() async throws {
        guard await StreamVenue.available(for: "StreamFleetTests.\(#function)") else { return }
        let venue = try await Self.venue()
        defer { venue.stop() }
        try await offThePool {
            guard let fleet = try Self.fleet(instances: 4, venue: venue) else { return }
            defer { fleet.stop() }
            let clients = try fleet.servers.map { try Self.subscribe($0) }
            var streams = try clients.map { try Self.events($0, count: 12) }
            // Each client's tail: the events every one of them got after all had joined.
            let firsts: [String] = streams.compactMap { $0.first?.id }
            let firstCommon = try #require(firsts.max { Self.number($0) < Self.number($1) })
            streams = streams.map { stream in Array(stream.drop { $0.id != firstCommon }) }
            let shortest = streams.map(\.count).min() ?? 0
            #expect(shortest >= 5, "\(streams)")
            for stream in streams.dropFirst() {
                for (got, expected) in zip(stream.prefix(shortest), streams[0].prefix(shortest)) {
                    #expect(got.id == expected.id && got.rest == expected.rest, "got \(got), expected \(expected)")
                }
            }
            #expect(fleet.venue.connections == 1, "\(fleet.venue.server.log)")
            let holders = try fleet.servers.filter { ServeFleet.sample(try $0.get("/metrics").body, #"pricehost_stream_fleet_holder{provider="coinbase"}"#) == 1 }
            #expect(holders.count == 1)
            let metrics = try fleet.servers[0].get("/metrics").body
            #expect(ServeFleet.sample(metrics, #"pricehost_stream_fleet_relayed_total{provider="coinbase"}"#) >= 5, "\(metrics)")
            #expect(metrics.contains(#"pricehost_stream_fleet_lag_seconds_count{provider="coinbase"}"#))
        }
    }

    @Test func whenTheHolderDiesAnotherInstanceConnectsWithinTheLeaseAndNeverTwoAtOnce() async throws {
        guard await StreamVenue.available(for: "StreamFleetTests.\(#function)") else { return }
        let venue = try await Self.venue()
        defer { venue.stop() }
        try await offThePool {
            guard let fleet = try Self.fleet(instances: 2, venue: venue) else { return }
            defer { fleet.stop() }
            let clients = try fleet.servers.map { try Self.subscribe($0) }
            _ = try clients.map { try Self.events($0, count: 2) }
            let holder = try #require(try fleet.holder())
            let survivor = 1 - holder
            fleet.servers[holder].process.send(SIGKILL)
            let killed = Date()
            // Bounded: the lease (3 s) plus the default staleAfterSeconds (5 s), and a margin, in steps of 50 ms.
            for _ in 0..<240 where fleet.venue.connections < 2 { usleep(50_000) }
            #expect(fleet.venue.connections == 2, "no instance took the feed over:\n\(fleet.venue.server.log)")
            #expect(Date().timeIntervalSince(killed) <= 3 + 5 + 2)
            // The venue never had two connections open at once: the first closed before the second opened.
            let log = fleet.venue.server.log
            let closed = try #require(log.range(of: "CLOSED 1"), "\(log)")
            let opened = try #require(log.range(of: "CONNECTED 2"), "\(log)")
            #expect(closed.lowerBound < opened.lowerBound, "\(log)")
            // The survivor's client goes on getting prices.
            #expect(try Self.events(clients[survivor], count: 3).count >= 3)
            #expect(ServeFleet.sample(try fleet.servers[survivor].get("/metrics").body, #"pricehost_stream_fleet_holder{provider="coinbase"}"#) == 1)
        }
    }

    @Test func withRedisDownEachInstanceStreamsAloneWithAWarningThenOneConnectionAgain() async throws {
        guard await StreamVenue.available(for: "StreamFleetTests.\(#function)") else { return }
        let venue = try await Self.venue()
        defer { venue.stop() }
        try await offThePool {
            guard let fleet = try Self.fleet(instances: 2, venue: venue) else { return }
            defer { fleet.stop() }
            let clients = try fleet.servers.map { try Self.subscribe($0) }
            _ = try clients.map { try Self.events($0, count: 2) }
            #expect(fleet.openConnections == 1)
            fleet.redis.stop()
            // Bounded: 10 s in steps of 50 ms.
            for _ in 0..<200 where fleet.openConnections < 2 { usleep(50_000) }
            #expect(fleet.openConnections == 2, "each instance streams on its own:\n\(fleet.venue.server.log)")
            for server in fleet.servers {
                #expect(server.process.waitForErrorLine(containing: "shared: redis is unavailable; streaming coinbase from this instance's own connection until it returns", within: 5) != nil)
                #expect(ServeFleet.sample(try server.get("/metrics").body, #"pricehost_stream_fleet_alone{provider="coinbase"}"#) == 1)
                #expect(try server.get("/readyz").body.contains("unavailable"))
            }
            _ = try clients.map { try Self.events($0, count: 2) }
            try fleet.redis.restart()
            for _ in 0..<300 where fleet.openConnections != 1 { usleep(50_000) }
            #expect(fleet.openConnections == 1, "back to one connection:\n\(fleet.venue.server.log)")
            for server in fleet.servers {
                #expect(server.process.waitForErrorLine(containing: "shared: redis is back; coinbase's feed is shared by the fleet again", within: 10) != nil)
            }
            _ = try clients.map { try Self.events($0, count: 2) }
        }
    }

    @Test func aClientResumingWithLastEventIDOnAnotherInstanceGetsWhatItMissed() async throws {
        guard await StreamVenue.available(for: "StreamFleetTests.\(#function)") else { return }
        let venue = try await Self.venue()
        defer { venue.stop() }
        try await offThePool {
            guard let fleet = try Self.fleet(instances: 2, venue: venue) else { return }
            defer { fleet.stop() }
            let (last, missed) = try Self.missedEvents(leaving: fleet.servers[0], watching: fleet.servers[1])
            #expect(missed.count >= 3)
            // Back on the instance it left, whose topic ended meanwhile: the events it missed come from the fleet's list in Redis.
            let back = try Self.subscribe(fleet.servers[0], lastEventID: last)
            let resumed = try Self.events(back, count: missed.count)
            for (got, expected) in zip(resumed, missed) {
                #expect(got.id == expected.id && got.rest == expected.rest, "got \(got), expected \(expected)")
            }
        }
    }

    /// Issue 33.2: the instance resumed on has had no /v1/stream client yet, so its feed loop has not run.
    @Test func aClientResumingOnAnInstanceWithNoStreamClientYetGetsWhatItMissed() async throws {
        try await Self.withFleet("StreamFleetTests.\(#function)", instances: 2, venue: Self.venue) { fleet in
            let (last, missed) = try Self.missedEvents(leaving: fleet.servers[0], watching: fleet.servers[0])
            // The first of what comes: a live event may arrive in the same read as the replay's last.
            let resumed = Array(try Self.events(try Self.subscribe(fleet.servers[1], lastEventID: last), count: missed.count).prefix(missed.count))
            #expect(resumed.map(\.id) == missed.map(\.id), "missed \(missed.map(\.id)), replayed \(resumed.map(\.id))")
            for (got, expected) in zip(resumed, missed) { #expect(got.rest == expected.rest) }
        }
    }
}
