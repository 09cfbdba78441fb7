import Foundation
import Glibc
import PriceHostTesting

/// Case 8: a fleet of `pricehost serve` instances sharing one Redis (issue 19).
/// First, two instances answering quotes a third one fetched: each request a hit in
/// the fleet's cache (one Redis round trip), requests per second and p99. Then 1 to 4
/// fresh instances under 64 clients asking for the same 50 pairs at once: the upstream
/// requests, which stay at one per pair however many instances there are.
/// Skipped, saying why, without redis-server.
enum FleetCase {
    static let clients = 64
    static let pairsAtOnce = 50

    static func run(_ context: BenchmarkContext) throws -> [TargetOutcome] {
        guard let redis = try RedisServer.start(forCase: "fleet") else {
            return [TargetOutcome(name: "fleet: shared-cache hits", figure: "redis-server missing", target: "-", met: nil)]
        }
        defer { redis.stop() }
        let hit = try sharedCacheHits(context, redis: redis)
        let flat = try upstreamAgainstInstances(context, redis: redis)
        return hit + flat
    }

    /// A config for the instances: coinbase on `spot`, a quote kept an hour, the fleet's Redis.
    private static func config(_ context: BenchmarkContext, _ spot: SpotServer, _ redis: RedisServer, name: String) throws -> String {
        try context.scratch.write("""
            {"plugins": ["\(context.locations.coinbasePlugin)"],
             "providers": {"coinbase": {"baseURL": "\(spot.baseURL)", "cacheSeconds": 3600, "maxAttempts": 1, "maxConcurrentRequests": 64}},
             "defaults": {"provider": "coinbase"},
             "serve": {"maxConnections": 256},
             "shared": {"redis": "\(redis.url)", "commandTimeoutSeconds": 5}}
            """, to: name)
    }

    /// Starts `count` instances on `config`; each is stopped by the returned closure.
    private static func startInstances(_ count: Int, config: String, context: BenchmarkContext) throws -> (ports: [UInt16], stop: () -> Void) {
        var started: [StartedChild] = []
        var ports: [UInt16] = []
        let stop = {
            for child in started {
                kill(child.pid, SIGTERM)
                _ = child.waitForExit()
            }
        }
        do {
            for _ in 0..<count {
                let errors = context.scratch.uniquePath("fleet", suffix: "err")
                let command = Command(context.locations.pricehost, ["serve", "--listen", "127.0.0.1:0", "--config", config])
                started.append(try Children.start(command, standardError: .file(errors), timeoutSeconds: 1800, extraEnvironment: ["PRICEHOST_LOG=warning"]))
                ports.append(try ServeCase.waitForPort(errors, command))
            }
        } catch {
            stop()
            throw error
        }
        return (ports, stop)
    }

    private static func sharedCacheHits(_ context: BenchmarkContext, redis: RedisServer) throws -> [TargetOutcome] {
        let spot = try SpotServer(delayMilliseconds: 0)
        defer { spot.stop() }
        let config = try config(context, spot, redis, name: "fleet-hits.json")
        let pairs = context.options.quick ? 3_000 : 10_000
        let paths = (0..<pairs).map { "/v1/prices?asset=A\($0)" }
        Report.progress("fleet: a third instance fetches \(pairs) pairs; two others answer them from Redis")
        // The filler fetches every pair once and so fills Redis; then it is gone.
        let filler = try startInstances(1, config: config, context: context)
        let fill = try LoadClient(ports: filler.ports, connections: clients, paths: paths)
        _ = fill.run(until: pairs)
        filler.stop()
        let fetched = spot.requestCount
        guard fill.failureCount == 0, fetched == pairs else {
            throw BenchmarkError("fleet: filling Redis: \(fill.failureCount) request(s) failed; the upstream saw \(fetched) of \(pairs)")
        }
        let fleet = try startInstances(2, config: config, context: context)
        defer { fleet.stop() }
        // Each instance is asked for every pair once: none is in its memory, all are in Redis.
        let shared = try bothAsked(paths, ports: fleet.ports)
        // The same again: now every pair is in each instance's memory, for comparison.
        let local = try bothAsked(paths, ports: fleet.ports)
        guard spot.requestCount == fetched else {
            throw BenchmarkError("fleet: the upstream saw \(spot.requestCount - fetched) request(s) while the fleet answered from its cache (expected none)")
        }
        Report.section("fleet: 2 instances, \(clients) keep-alive clients (\(clients / 2) each), \(2 * pairs) requests of \(pairs) pairs a third instance fetched")
        Report.note("the upstream saw no request during the runs. Redis, the instances and the clients share the cores")
        Report.table([
            Row(what: "shared-cache hits (one Redis round trip each): requests/s", median: String(Int(shared.throughput.rounded()))),
            Row(what: "  latency p50 / p90 / p99 / max, ms", median: shared.latencies),
            Row(what: "the same pairs again, from each instance's memory: requests/s", median: String(Int(local.throughput.rounded()))),
            Row(what: "  latency p50 / p90 / p99 / max, ms", median: local.latencies),
        ], spreadHeading: "")
        return []
    }

    /// Both instances asked for every path once, at the same time: requests/s together, and the latencies.
    private static func bothAsked(_ paths: [String], ports: [UInt16]) throws -> (throughput: Double, latencies: String) {
        let loads = try ports.map { try LoadClient(ports: [$0], connections: clients / ports.count, paths: paths) }
        let done = DispatchGroup()
        let start = Monotonic.nanoseconds()
        for load in loads {
            done.enter()
            Thread.detachNewThread {
                _ = load.run(until: paths.count)
                done.leave()
            }
        }
        done.wait()
        let seconds = Double(Monotonic.nanoseconds() - start) / 1e9
        let failures = loads.map(\.failureCount).reduce(0, +)
        let latencies = loads.flatMap { $0.sortedLatencies() }.sorted()
        guard failures == 0, !latencies.isEmpty else { throw BenchmarkError("fleet: \(failures) request(s) failed or were not 200") }
        func percentile(_ fraction: Double) -> Double {
            Double(latencies[min(latencies.count - 1, Int(Double(latencies.count) * fraction))]) / 1000
        }
        return (Double(ports.count * paths.count) / seconds,
                String(format: "%.2f / %.2f / %.2f / %.2f", percentile(0.5), percentile(0.9), percentile(0.99), percentile(1)))
    }

    private static func upstreamAgainstInstances(_ context: BenchmarkContext, redis: RedisServer) throws -> [TargetOutcome] {
        // Slow enough that the clients' requests for a pair overlap on every instance.
        let spot = try SpotServer(delayMilliseconds: 100)
        defer { spot.stop() }
        let config = try config(context, spot, redis, name: "fleet-flat.json")
        let paths = (0..<pairsAtOnce).map { "/v1/prices?asset=B\($0)" }
        var rows: [Row] = []
        var counts: [Int] = []
        for instances in 1...4 {
            Report.progress("fleet: \(instances) instance(s), \(clients) clients asking for the same \(pairsAtOnce) pairs")
            _ = try? redis.cli(["FLUSHALL"])
            let fleet = try startInstances(instances, config: config, context: context)
            let before = spot.requestCount
            let load = try LoadClient(ports: fleet.ports, connections: clients, paths: paths)
            _ = load.run(until: clients * pairsAtOnce)
            fleet.stop()
            guard load.failureCount == 0 else { throw BenchmarkError("fleet: \(load.failureCount) request(s) failed with \(instances) instance(s)") }
            let upstream = spot.requestCount - before
            counts.append(upstream)
            rows.append(Row(what: "\(instances) instance(s): upstream requests for \(clients * pairsAtOnce) requests of \(pairsAtOnce) pairs", median: String(upstream),
                            target: "= \(pairsAtOnce)", verdict: upstream == pairsAtOnce ? "met" : "MISSED"))
        }
        Report.section("fleet: upstream requests against the number of instances (Redis flushed, fresh instances each time)")
        Report.note("64 keep-alive clients spread over the instances; the upstream answers after 100 ms")
        Report.table(rows, spreadHeading: "")
        let flat = counts.allSatisfy { $0 == pairsAtOnce }
        return [TargetOutcome(name: "fleet: upstream requests, 1 to 4 instances", figure: counts.map(String.init).joined(separator: " / "),
                              target: "\(pairsAtOnce) each (flat)", met: flat)]
    }
}
