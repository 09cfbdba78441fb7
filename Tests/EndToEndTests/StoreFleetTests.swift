import Foundation
import Glibc
import PriceHostTesting
import Testing

/// A fleet's history in one PostgreSQL (issue 36): `serve` instances sharing Debian's redis-server and a
/// throwaway PostgreSQL, streaming from a loopback venue (Python's `websockets`). Each streamed quote is
/// written by the feed's holder alone, every instance answers the same candles, and a holder killed
/// mid-stream loses nothing to the store and doubles nothing. Skips, saying why, without any of the three.
@Suite(.timeLimit(.minutes(3)))
struct StoreFleetTests {
    struct Fleet {
        let fleet: StreamFleetTests.Fleet
        let postgres: PostgresServer
        let database: String

        var servers: [ServeProcess] { fleet.servers }

        /// The store's rows of coinbase's BTC-USD: amount by venue time, and how many rows in all.
        func stored() throws -> (amounts: [Int64: String], rows: Int) {
            let text = try postgres.psql("""
                SELECT q.ts || ' ' || q.amount FROM pricehost_quotes q JOIN pricehost_series s ON s.id = q.series
                WHERE s.asset = 'BTC' AND s.currency = 'USD' AND s.origin = 'coinbase' ORDER BY q.ts
                """, database: database)
            var amounts: [Int64: String] = [:]
            var rows = 0
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: " ")
                guard parts.count == 2, let time = Int64(parts[0]) else { continue }
                amounts[time] = String(parts[1])
                rows += 1
            }
            return (amounts, rows)
        }

        /// `pricehost_store_writes_total` of each instance.
        func writes() throws -> [Int] {
            try servers.map { try StoreSandbox.writes($0) ?? 0 }
        }
    }

    /// Runs `body` on `instances` instances that share redis and a new database of the suite's PostgreSQL.
    static func withFleet(_ test: String, instances: Int, venue makeVenue: () async throws -> StreamVenue = StreamFleetTests.venue,
                          _ body: @escaping @Sendable (Fleet) throws -> Void) async throws {
        guard await StreamVenue.available(for: test) else { return }
        let postgres: PostgresServer
        switch PostgresServer.shared {
        case .success(let server): postgres = server
        case .failure(let error):
            print("\(test): \(error)")
            return
        }
        let venue = try await makeVenue()
        defer { venue.stop() }
        try await offThePool {
            let database = try postgres.makeDatabase()
            let store = #", "store": {"url": "\#(postgres.url(database: database))"}"#
            guard let fleet = try StreamFleetTests.fleet(instances: instances, venue: venue, extra: store) else { return }
            defer { fleet.stop() }
            try body(Fleet(fleet: fleet, postgres: postgres, database: database))
        }
    }

    /// The venue's time of an event's quote (`"timestamp"`, ISO 8601 with milliseconds), in Unix milliseconds, and its amount.
    static func quote(of event: (id: String?, rest: String)) -> (time: Int64, amount: String)? {
        guard let data = event.rest.split(separator: "\n").first(where: { $0.hasPrefix("data: ") })?.dropFirst(6),
              let object = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any],
              let amount = object["amount"] as? String, let stamp = object["timestamp"] as? String else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = formatter.date(from: stamp) else { return nil }
        return (Int64((date.timeIntervalSince1970 * 1000).rounded()), amount)
    }

    /// Waits (at most 10 s) until the store holds every one of `quotes`; the rows then.
    static func waitUntilStored(_ quotes: [(time: Int64, amount: String)], in fleet: Fleet) throws -> (amounts: [Int64: String], rows: Int) {
        var stored = try fleet.stored()
        // Bounded: 100 looks, 100 ms apart.
        for _ in 0..<100 where !quotes.allSatisfy({ stored.amounts[$0.time] == $0.amount }) {
            usleep(100_000)
            stored = try fleet.stored()
        }
        return stored
    }

    @Test func threeInstancesWriteEachStreamedQuoteOnceAndAnswerTheSameCandles() async throws {
        try await Self.withFleet("StoreFleetTests.\(#function)", instances: 3) { fleet in
            let clients = try fleet.servers.map { try StreamFleetTests.subscribe($0) }
            let seen = try clients.map { try StreamFleetTests.events($0, count: 15) }
            let quotes = seen.flatMap { $0.compactMap(Self.quote(of:)) }
            #expect(quotes.count >= 45)
            let stored = try Self.waitUntilStored(quotes, in: fleet)
            for quote in quotes { #expect(stored.amounts[quote.time] == quote.amount, "\(quote) is not in the store") }
            // One row a venue time: each tick is one quote, written once.
            #expect(stored.rows == stored.amounts.count)
            // Written by the holder alone: the others write nothing, and the holder wrote what the store has.
            let holder = try #require(try fleet.fleet.holder())
            // The rows now, then the counters once the batches that wrote them have been counted (after each commit).
            let after = try fleet.stored()
            var writes = try fleet.writes()
            // Bounded: 50 looks, 200 ms apart (a batch is counted just after its commit; under load, a moment later).
            for _ in 0..<50 where writes[holder] < after.rows {
                usleep(200_000)
                writes = try fleet.writes()
            }
            #expect(writes.indices.filter { $0 != holder }.allSatisfy { writes[$0] == 0 }, "writes by instance: \(writes), holder \(holder)")
            #expect(writes[holder] >= after.rows && after.rows >= quotes.count / 3, "writes by instance: \(writes); \(after.rows) rows")
            // Any two instances answer the same candles, byte for byte, once the venue has stopped and its last quotes are
            // written (the current minute's candle changes with each until then; under load the last batch may come late).
            fleet.fleet.venue.stop()
            let from = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-600))
            var answers: [HTTPReply] = []
            // Bounded: 40 rounds of the three, 250 ms apart, until they agree.
            for _ in 0..<40 {
                answers = try fleet.servers.map { try $0.get("/v1/candles?asset=BTC&provider=coinbase&interval=1m&from=\(from)") }
                if Set(answers.map(\.body)).count == 1 { break }
                usleep(250_000)
            }
            #expect(answers.allSatisfy { $0.status == 200 && $0.body.contains(#""count""#) }, "\(answers)")
            #expect(Set(answers.map(\.body)).count == 1, "\(answers.map(\.body))")
        }
    }

    /// A venue whose first connection ticks BTC every 20 ms for 20 s, and whose later ones tick other prices at later times:
    /// what the first holder relayed and had not written when it died is only in the fleet's backlog, not played again.
    static func failoverVenue() async throws -> StreamVenue {
        let start = Date()
        func ticks(_ range: ClosedRange<Int>, from offset: Double) -> [StreamVenue.Step] {
            range.flatMap { index in
                [StreamVenue.Step.send(CoinbaseFeed.ticker("\(60_000 + index).00", sequence: index,
                                                           at: start.addingTimeInterval(offset + Double(index) / 50))), .sleep(0.02)]
            }
        }
        let subscribe: [StreamVenue.Step] = [.waitMessage, .send(CoinbaseFeed.subscriptions)]
        return try await StreamVenue.start([subscribe + ticks(1...1_000, from: 0) + [.hold], subscribe + ticks(2_001...3_000, from: 0) + [.hold]])
    }

    @Test func aHolderKilledMidStreamLosesNoQuoteToTheStoreAndDoublesNone() async throws {
        try await Self.withFleet("StoreFleetTests.\(#function)", instances: 2, venue: Self.failoverVenue) { fleet in
            let clients = try fleet.servers.map { try StreamFleetTests.subscribe($0) }
            _ = try clients.map { try StreamFleetTests.events($0, count: 2) }
            let holder = try #require(try fleet.fleet.holder())
            let survivor = 1 - holder
            // What the survivor's client gets before, across and after the failover.
            var seen = try StreamFleetTests.events(clients[survivor], count: 5)
            fleet.servers[holder].process.send(SIGKILL)
            // Bounded: the lease (3 s) and the default staleAfterSeconds (5 s), and a margin, in steps of 50 ms.
            for _ in 0..<240 where fleet.fleet.venue.connections < 2 { usleep(50_000) }
            #expect(fleet.fleet.venue.connections == 2, "no instance took the feed over:\n\(fleet.fleet.venue.server.log)")
            seen += try StreamFleetTests.events(clients[survivor], count: 10)
            let quotes = seen.compactMap(Self.quote(of:))
            let stored = try Self.waitUntilStored(quotes, in: fleet)
            for quote in quotes { #expect(stored.amounts[quote.time] == quote.amount, "\(quote) reached a client and is not in the store") }
            #expect(stored.rows == stored.amounts.count, "a quote stored twice")
            let metrics = try fleet.servers[survivor].get("/metrics").body
            #expect(ServeFleet.sample(metrics, #"pricehost_stream_fleet_holder{provider="coinbase"}"#) == 1)
            // The gap is counted, and said once: from the dead holder's last relay to the take-over,
            // at least most of the lease (3 s) and at most the lease and staleAfterSeconds (5 s), with a margin.
            let unheld = metrics.split(separator: "\n").first { $0.hasPrefix(#"pricehost_stream_fleet_unheld_seconds_total{provider="coinbase"} "#) }
                .flatMap { $0.split(separator: " ").last.flatMap { Double($0) } } ?? 0
            #expect(unheld >= 1 && unheld <= 10, "\(metrics)")
            #expect(fleet.servers[survivor].process.waitForErrorLine(containing: "s from the fleet's newest event to this instance taking the feed over", within: 5) != nil)
        }
    }
}
