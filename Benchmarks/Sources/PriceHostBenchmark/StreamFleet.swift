import Glibc
import PriceHostTesting

/// A fleet that streams (issue 27): `instances` ``StreamServer``s sharing one Redis
/// (`shared.redis`), each with SSE clients of its own, and a ``FleetVenue`` that accepts
/// whatever connects and writes each ticker to every open connection. One instance holds
/// the lease and the venue's connection; every instance gets the tickers through Redis.
final class StreamFleet: StreamRun {
    let venue: FleetVenue
    let servers: [StreamServer]
    let clientGroups: [StreamClients]
    let writer: TickerWriter
    let label = "stream-fleet"

    /// Starts the venue and the instances, waits (at most 10 s each) until each is connected to
    /// Redis, then connects `clientsEach` SSE clients to each, all at once, and waits for the
    /// first connection to the venue and every client's head.
    /// - Parameter timed: how many tickers will be timed: send times are kept for the warm-up and them.
    init(_ context: BenchmarkContext, name: String, instances: Int, redis: RedisServer, clientsEach: Int, timed: Int) throws {
        let venue = try FleetVenue()
        var servers: [StreamServer] = []
        var groups: [StreamClients] = []
        let sendTimes = SendTimes(capacity: TickerWriter.maximumWarmUp + timed)
        do {
            for index in 0..<instances {
                servers.append(try StreamServer(context, name: "\(name)-\(index + 1)", venue: venue.url, maxConnections: clientsEach + 64, redis: redis.url))
            }
            for (index, server) in servers.enumerated() { try Self.waitUntilShared(server, index) }
            for server in servers {
                groups.append(try StreamClients(port: server.port, count: clientsEach, threads: 1, sendTimes: sendTimes))
            }
            groups.forEach { $0.start() }
        } catch {
            groups.forEach { _ = $0.stop() }
            servers.forEach { $0.kill() }
            venue.stop()
            throw error
        }
        self.venue = venue
        self.servers = servers
        clientGroups = groups
        writer = TickerWriter(venue, sendTimes: sendTimes)
        do {
            try venue.waitForConnection(within: 30)
            try waitForHeads(within: 60)
        } catch {
            _ = stop()
            throw error
        }
    }

    /// Waits at most 10 s until the instance's `/readyz` says it is connected to Redis: a client
    /// that came sooner would find it still connecting, which is not the fleet this case measures.
    private static func waitUntilShared(_ server: StreamServer, _ index: Int) throws {
        var body = ""
        // Bounded: 200 looks, 50 ms apart.
        for _ in 0..<200 {
            body = (try? LoopbackHTTPConnection(port: server.port).get("/readyz"))?.body ?? ""
            if body.contains("connected") { return }
            usleep(50_000)
        }
        throw BenchmarkError("stream-fleet: instance \(index + 1) did not connect to redis within 10 s; /readyz: \(body)\n\(server.standardErrorTail)")
    }

    /// The instances whose `/metrics` say they hold coinbase's feed
    /// (`pricehost_stream_fleet_holder{provider="coinbase"} 1`), by index.
    func holders() -> [Int] {
        servers.indices.filter { index in
            servers[index].metrics().flatMap { StreamServer.sample(#"pricehost_stream_fleet_holder{provider="coinbase"} "#, in: $0) } == 1
        }
    }

    /// The updates each instance received through Redis (`pricehost_stream_fleet_relayed_total`), -1 where unknown.
    func relayed() -> [Int] {
        servers.map { $0.metrics().flatMap { StreamServer.sample(#"pricehost_stream_fleet_relayed_total{provider="coinbase"} "#, in: $0) } ?? -1 }
    }

    /// Stops the clients, then the instances, then the venue; each instance's latency samples (ns, sorted).
    func stop() -> [[UInt64]] {
        let samples = clientGroups.map { $0.stop() }
        servers.forEach { $0.stop() }
        venue.stop()
        return samples
    }
}
