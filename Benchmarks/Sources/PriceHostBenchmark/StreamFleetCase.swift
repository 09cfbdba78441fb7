import PriceHostTesting

/// Case 10: a fleet that streams (issue 27): `pricehost serve` instances sharing a redis-server
/// of their own, with coinbase `"stream": true` at the stream case's venue (here a ``FleetVenue``,
/// which accepts and counts every connection). First the added latency of the Redis hop: a fleet
/// of 2, one SSE client on each, against one server without Redis (``StreamCase/latency(_:clients:tickers:)``),
/// in the same run. Then the venue's connections with 1 to 4 fresh instances, a client each: one
/// holder, so one connection, however many instances there are. Skipped, saying why, without redis-server.
enum StreamFleetCase {
    static let rate = StreamCase.rate
    /// Ticking after every client has events, in the connection-count runs: longer than the
    /// lease (3 s), so a renewal that failed would show up as a second connection.
    static let watchSeconds = 5
    static let fleetHolder = #"pricehost_stream_fleet_holder{provider="coinbase"}"#

    static func run(_ context: BenchmarkContext) throws -> [TargetOutcome] {
        guard let redis = try RedisServer.start(forCase: "stream-fleet") else {
            return [TargetOutcome(name: "stream-fleet: venue connections, 1 to 4 instances", figure: "redis-server missing", target: "-", met: nil)]
        }
        defer { redis.stop() }
        let tickers = context.options.quick ? 600 : 1_000
        let baseline = try StreamCase.latency(context, clients: 1, tickers: tickers)
        let fleet = try fleetLatency(context, redis: redis, tickers: tickers)
        let counts = try (1...4).map { try connections(context, redis: redis, instances: $0) }

        var rows = [
            Row(what: "1 server, no Redis (the baseline): p50 / p90 / p99 / max, ms", median: baseline.percentiles),
            Row(what: "fleet of 2, the client of the instance not holding the feed", median: fleet.nonHolder.percentiles),
            Row(what: "fleet of 2, the client of the holder (its events come through Redis too)", median: fleet.holder.percentiles),
            Row(what: "the added latency of the Redis hop (non-holder minus baseline): p50 / p99, ms",
                median: String(format: "%+.2f / %+.2f", fleet.nonHolder.percentile(0.5) - baseline.percentile(0.5),
                               fleet.nonHolder.percentile(0.99) - baseline.percentile(0.99))),
            Row(what: "  samples: baseline / non-holder / holder, of \(Report.grouped(tickers)) each",
                median: [baseline, fleet.nonHolder, fleet.holder].map { Report.grouped($0.samples.count) }.joined(separator: " / ")),
            Row(what: "  server CPU per ticker: baseline / non-holder / holder",
                median: [baseline, fleet.nonHolder, fleet.holder].map(\.cpuPerTicker).joined(separator: " / ")),
        ]
        if fleet.nonHolder.cutOff + fleet.holder.cutOff > 0 {
            rows.append(Row(what: "  clients the fleet cut off for staying behind", median: String(fleet.nonHolder.cutOff + fleet.holder.cutOff)))
        }
        Report.section("stream-fleet: a fleet streaming one feed through Redis (issue 27): the latency of the Redis hop")
        Report.note("instances: pricehost serve --listen 127.0.0.1:0 (PRICEHOST_LOG=warning), coinbase \"stream\": true, streamURL at a")
        Report.note("WebSocket venue in this process, staleAfterSeconds 600; the fleet's with shared.redis at a redis-server of its own.")
        Report.note("One SSE client per instance (GET /v1/stream?asset=BTC), \(Report.grouped(tickers)) tickers at \(rate)/s after a warm-up;")
        Report.note("latency: the client's recv of an event minus the venue's write of its ticker (CLOCK_MONOTONIC). The holder, by /metrics,")
        Report.note("was instance \(fleet.holderIndex + 1) of 2; updates each received through Redis: \(fleet.relayed.map(Report.grouped).joined(separator: " / ")); venue connections in")
        Report.note("that run: \(fleet.accepted); feed counters: baseline \(baseline.counters), fleet \(fleet.holder.counters).")
        Report.note("Redis, the venue, the instances and the clients share the cores.")
        Report.table(rows, spreadHeading: "")

        let met = counts.allSatisfy { $0.accepted == 1 && $0.mostOpen == 1 }
        Report.section("stream-fleet: the venue's connections against the number of instances (fresh instances and venue each, Redis flushed)")
        Report.note("a client per instance, connected at once; every client had events, then \(watchSeconds) s more at \(rate)/s, all received;")
        Report.note("connections counted before the instances stop (a holder stopping hands the lease on, which is not measured here)")
        Report.table(counts.map { run in
            let fine = run.accepted == 1 && run.mostOpen == 1
            return Row(what: "\(run.instances) instance(s): connections accepted / most open at once / instances holding",
                       median: "\(run.accepted) / \(run.mostOpen) / \(run.holders)", target: "1 / 1 / 1", verdict: fine ? "met" : "MISSED")
        }, spreadHeading: "")
        return [TargetOutcome(name: "stream-fleet: venue connections, 1 to 4 instances", figure: counts.map { String($0.accepted) }.joined(separator: " / "),
                              target: "1 each", met: met)]
    }

    /// The fleet-of-2 latency run's measurements.
    struct FleetLatency {
        var holder: StreamCase.LatencyRun
        var nonHolder: StreamCase.LatencyRun
        var holderIndex = 0
        var relayed: [Int] = []
        var accepted = 0
    }

    /// Two instances, a client each, `tickers` at ``rate`` a second: each client's latency, by
    /// whether its instance holds the feed.
    private static func fleetLatency(_ context: BenchmarkContext, redis: RedisServer, tickers: Int) throws -> FleetLatency {
        Report.progress("stream-fleet: latency, 2 instances sharing redis, an SSE client each, \(tickers) tickers at \(rate)/s")
        _ = try? redis.cli(["FLUSHALL"])
        let fleet = try StreamFleet(context, name: "stream-fleet-latency", instances: 2, redis: redis, clientsEach: 1, timed: tickers)
        var runs = (0..<2).map { _ in StreamCase.LatencyRun(clients: 1, tickers: tickers) }
        var holder = 0
        var result = FleetLatency(holder: runs[0], nonHolder: runs[1])
        let measured = Result { () throws -> Void in
            try fleet.warmUp()
            let holders = fleet.holders()
            guard holders.count == 1 else { throw fleet.failure("\(holders.count) instances say they hold the feed (\(fleetHolder) 1), not 1") }
            holder = holders[0]
            let cpu = fleet.servers.map(\.cpuSeconds)
            try fleet.sendTimed(tickers, perSecond: rate)
            for index in runs.indices {
                runs[index].cpuSeconds = fleet.servers[index].cpuSeconds - cpu[index]
                runs[index].cutOff = fleet.clientGroups[index].cutOffCount
            }
            runs[holder].counters = StreamCase.describe(fleet.servers[holder].feedCounters())
            result.relayed = fleet.relayed()
            result.accepted = fleet.venue.accepted
        }
        for (index, samples) in fleet.stop().enumerated() { runs[index].samples = samples }
        try measured.get()
        result.holderIndex = holder
        result.holder = runs[holder]
        result.nonHolder = runs[1 - holder]
        return result
    }

    /// One connection-count run's measurements.
    struct ConnectionCount {
        var instances: Int
        var accepted = 0
        var mostOpen = 0
        var holders = 0
    }

    /// `instances` fresh instances, a client each, against a fresh venue: warmed up, then
    /// ``watchSeconds`` at ``rate`` a second; the venue's connections.
    private static func connections(_ context: BenchmarkContext, redis: RedisServer, instances: Int) throws -> ConnectionCount {
        Report.progress("stream-fleet: \(instances) instance(s), an SSE client each: the venue's connections")
        _ = try? redis.cli(["FLUSHALL"])
        let ticks = watchSeconds * rate
        let fleet = try StreamFleet(context, name: "stream-fleet-\(instances)", instances: instances, redis: redis, clientsEach: 1, timed: ticks)
        var run = ConnectionCount(instances: instances)
        let measured = Result { () throws -> Void in
            try fleet.warmUp()
            try fleet.sendTimed(ticks, perSecond: rate)
            run.holders = fleet.holders().count
            run.accepted = fleet.venue.accepted
            run.mostOpen = fleet.venue.mostOpenAtOnce
            let problems = fleet.venue.problems
            guard problems.isEmpty else { throw fleet.failure("the venue could not take a connection: \(problems.joined(separator: "; "))") }
        }
        _ = fleet.stop()
        try measured.get()
        return run
    }
}
