import PriceHostTesting

/// Case 10: a fleet that streams (issue 27): `pricehost serve` instances sharing a redis-server
/// of their own, with coinbase `"stream": true` at the stream case's venue (here a ``FleetVenue``,
/// which accepts and counts every connection). First the added latency of the Redis hop: a fleet
/// of 2, one SSE client on each, against one server without Redis, both up at once and each
/// sent every ticker, the fleet half an interval after the baseline. Then the venue's
/// connections with 1 to 4 fresh instances, a client each: one holder, so one connection,
/// however many instances there are. Skipped, saying why, without redis-server.
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
        let (baseline, fleet) = try latencies(context, redis: redis, tickers: tickers)
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
        Report.note("One SSE client per instance (GET /v1/stream?asset=BTC); after a warm-up, \(Report.grouped(tickers)) tickers at \(rate)/s to the baseline")
        Report.note("and the same to the fleet, both up at once, each fleet ticker written half an interval after the baseline's;")
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

    /// One server without Redis, and a fleet of two instances, a client each, both up at once:
    /// `tickers` at ``rate`` a second to each, the fleet's half an interval after the baseline's,
    /// so both run steadily and a burst of other work on the shared cores lands on both alike;
    /// the baseline's latency, and each fleet client's, by whether its instance holds the feed.
    private static func latencies(_ context: BenchmarkContext, redis: RedisServer, tickers: Int) throws -> (StreamCase.LatencyRun, FleetLatency) {
        Report.progress("stream-fleet: latency, 1 server without redis and 2 instances sharing redis, an SSE client each, \(tickers) tickers at \(rate)/s")
        _ = try? redis.cli(["FLUSHALL"])
        let single = try StreamSession(context, name: "stream-fleet-baseline", clientCount: 1, threads: 1, timed: tickers)
        let fleet: StreamFleet
        do {
            fleet = try StreamFleet(context, name: "stream-fleet-latency", instances: 2, redis: redis, clientsEach: 1, timed: tickers)
        } catch {
            _ = single.stop()
            throw error
        }
        var baseline = StreamCase.LatencyRun(clients: 1, tickers: tickers)
        var runs = (0..<2).map { _ in StreamCase.LatencyRun(clients: 1, tickers: tickers) }
        var holder = 0
        var result = FleetLatency(holder: runs[0], nonHolder: runs[1])
        let measured = Result { () throws -> Void in
            try single.warmUp()
            try fleet.warmUp()
            let holders = fleet.holders()
            guard holders.count == 1 else { throw fleet.failure("\(holders.count) instances say they hold the feed (\(fleetHolder) 1), not 1") }
            holder = holders[0]
            let cpu = (single.server.cpuSeconds, fleet.servers.map(\.cpuSeconds))
            let timed = (single.timeNext(tickers), fleet.timeNext(tickers))
            let interval = UInt64(1_000_000_000 / rate)
            let start = Monotonic.nanoseconds() + interval
            for index in 0..<UInt64(tickers) {
                Monotonic.sleep(until: start + index * interval)
                single.sendOne()
                Monotonic.sleep(until: start + index * interval + interval / 2)
                fleet.sendOne()
            }
            try single.waitForEveryClient(through: timed.0.upperBound - 1, within: 300)
            try fleet.waitForEveryClient(through: timed.1.upperBound - 1, within: 300)
            baseline.cpuSeconds = single.server.cpuSeconds - cpu.0
            baseline.cutOff = single.clients.cutOffCount
            baseline.counters = StreamCase.describe(single.server.feedCounters())
            for index in runs.indices {
                runs[index].cpuSeconds = fleet.servers[index].cpuSeconds - cpu.1[index]
                runs[index].cutOff = fleet.clientGroups[index].cutOffCount
            }
            runs[holder].counters = StreamCase.describe(fleet.servers[holder].feedCounters())
            result.relayed = fleet.relayed()
            result.accepted = fleet.venue.accepted
        }
        baseline.samples = single.stop()
        for (index, samples) in fleet.stop().enumerated() { runs[index].samples = samples }
        try measured.get()
        result.holderIndex = holder
        result.holder = runs[holder]
        result.nonHolder = runs[1 - holder]
        return (baseline, result)
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
