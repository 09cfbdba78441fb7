import Glibc

/// Case 9: `pricehost serve` pushing Coinbase's feed (issue 25) from a WebSocket venue in
/// this process (``StreamVenue``) to SSE clients of `/v1/stream?asset=BTC` (``StreamClients``):
/// the latency from the venue's write of a ticker to each client's receipt of its event, with
/// 1 and with 1,000 clients; how many tickers per second one feed parses and fans out to a
/// client; and the server's RSS over 1,000,000 tickers to 100 clients. A fresh server each.
enum StreamCase {
    static let rate = 200
    static let manyClients = 1_000
    static let memoryClients = 100
    static let p99OneMilliseconds = 2.0
    static let p99ManyMilliseconds = 10.0
    static let throughputTarget = 100_000.0
    static let growthTargetKilobytes = 1024.0
    /// Tickers the memory run's venue may be ahead of its slowest client: under the
    /// server's inbox bound (256), so no client is ever coalesced.
    static let memoryWindow = 200

    static func run(_ context: BenchmarkContext) throws -> [TargetOutcome] {
        // 1,000 clients: their sockets here, and in the server a socket and a wake pipe each.
        try raiseDescriptorLimit(to: 4 * manyClients + 1024, for: "stream: 1,000 SSE clients")
        let quick = context.options.quick
        let one = try latency(context, clients: 1, tickers: quick ? 600 : 1_000)
        let many = try latency(context, clients: manyClients, tickers: quick ? 400 : 600)
        let blast = try throughput(context, tickers: quick ? 200_000 : 500_000)
        let memory = try memory(context, tickers: quick ? 300_000 : 1_000_000)

        var rows: [Row] = []
        var outcomes: [TargetOutcome] = []
        for (run, target) in [(one, p99OneMilliseconds), (many, p99ManyMilliseconds)] {
            let p99 = run.percentile(0.99)
            let clients = run.clients == 1 ? "1 client" : "\(grouped(run.clients)) clients"
            rows.append(Row(what: "latency, \(clients), \(run.tickers) tickers at \(rate)/s: p50 / p90 / p99 / max, ms", median: run.percentiles,
                            target: "p99 <= \(Int(target)) ms", verdict: p99 <= target ? "met" : "MISSED"))
            rows.append(Row(what: "  samples (events received, of \(grouped(run.tickers)) x \(grouped(run.clients)))", median: grouped(run.samples.count)))
            if run.cutOff > 0 { rows.append(Row(what: "  clients the server cut off for staying behind", median: grouped(run.cutOff))) }
            rows.append(Row(what: "  server CPU per ticker", median: run.cpuPerTicker))
            outcomes.append(TargetOutcome(name: "stream: latency p99, \(clients)", figure: String(format: "%.2f ms", p99),
                                          target: "<= \(Int(target)) ms", met: p99 <= target))
        }
        let perSecond = Double(blast.tickers) / blast.seconds
        rows.append(Row(what: "throughput, \(grouped(blast.tickers)) tickers, first write to the last event: tickers/s",
                        median: grouped(Int(perSecond.rounded())), target: ">= \(grouped(Int(throughputTarget)))/s",
                        verdict: perSecond >= throughputTarget ? "met" : "MISSED"))
        rows.append(Row(what: "  the venue's writes all taken after", median: Report.milliseconds(blast.venueSeconds * 1000)))
        rows.append(Row(what: "  server RSS before / at its peak (VmHWM)", median: Report.kilobytes(blast.residentBefore) + " / " + Report.kilobytes(blast.residentPeak)))
        rows.append(Row(what: "  events the client received, of \(grouped(blast.tickers))", median: grouped(blast.received)))
        rows.append(Row(what: "  server CPU per ticker", median: String(format: "%.1f us", blast.cpuSeconds / Double(blast.tickers) * 1e6)))
        outcomes.append(TargetOutcome(name: "stream: tickers/s, one feed to a client", figure: grouped(Int(perSecond.rounded())) + "/s",
                                      target: ">= \(grouped(Int(throughputTarget)))/s", met: perSecond >= throughputTarget))
        let first = memory.resident[0]
        let last = memory.resident[memory.resident.count - 1]
        for (tickers, kilobytes) in [first, last] {
            rows.append(Row(what: "server RSS (VmRSS) after \(grouped(tickers)) tickers", median: Report.kilobytes(kilobytes)))
        }
        let growth = last.kilobytes - first.kilobytes
        rows.append(Row(what: "RSS growth, \(grouped(first.tickers)) -> \(grouped(last.tickers)) tickers to \(memoryClients) clients",
                        median: Report.signedKilobytes(growth), target: "<= +\(grouped(Int(growthTargetKilobytes))) KiB",
                        verdict: growth <= growthTargetKilobytes ? "flat" : "MISSED (grows)"))
        rows.append(Row(what: "  tickers/s of that run (the venue at most \(memoryWindow) ahead of the slowest client)",
                        median: grouped(Int((Double(last.tickers) / memory.seconds).rounded()))))
        rows.append(Row(what: "  events received, of \(grouped(last.tickers)) x \(memoryClients)", median: grouped(memory.received)))
        outcomes.append(TargetOutcome(name: "stream: RSS growth \(grouped(first.tickers)) -> \(grouped(last.tickers)) tickers, \(memoryClients) clients",
                                      figure: Report.signedKilobytes(growth), target: "<= +\(grouped(Int(growthTargetKilobytes))) KiB",
                                      met: growth <= growthTargetKilobytes))

        Report.section("stream: pricehost serve pushing Coinbase's feed (\"stream\": true) from a loopback venue to SSE clients (issue 25)")
        Report.note("server: pricehost serve --listen 127.0.0.1:0 (PRICEHOST_LOG=warning), a fresh one per run, streamURL at a WebSocket")
        Report.note("venue in this process (StreamVenue.swift: full Coinbase tickers, one frame each); clients: GET /v1/stream?asset=BTC,")
        Report.note("read on 1 epoll thread (1 client) or 2 (100 or 1,000 clients) (StreamClients.swift). Latency: the client's recv")
        Report.note("of an event minus the venue's write of its ticker (CLOCK_MONOTONIC), one sample per client per ticker.")
        Report.note("The venue, the clients and the server share the cores; feed counters: \(one.counters), \(many.counters), \(blast.counters), \(memory.counters)")
        Report.table(rows, spreadHeading: "")
        Report.note("server RSS every 100,000 tickers of the memory run, KiB: " + memory.resident.map { grouped(Int($0.kilobytes.rounded())) }.joined(separator: ", "))
        return outcomes
    }

    /// One latency run's measurements.
    struct LatencyRun {
        var clients: Int
        var tickers: Int
        var samples: [UInt64] = []
        var cpuSeconds = 0.0
        var counters = ""
        /// Clients the server cut off for staying behind.
        var cutOff = 0

        /// The `fraction` quantile of the samples, ms.
        func percentile(_ fraction: Double) -> Double {
            guard !samples.isEmpty else { return .infinity }
            return Double(samples[min(samples.count - 1, Int(Double(samples.count) * fraction))]) / 1e6
        }

        /// `p50 / p90 / p99 / max`, ms.
        var percentiles: String {
            String(format: "%.2f / %.2f / %.2f / %.2f", percentile(0.5), percentile(0.9), percentile(0.99), percentile(1))
        }

        /// Server CPU per ticker, µs.
        var cpuPerTicker: String { String(format: "%.0f us", cpuSeconds / Double(tickers) * 1e6) }
    }

    /// `tickers` at ``rate`` per second to `clients` clients, each write at its time on the clock.
    private static func latency(_ context: BenchmarkContext, clients: Int, tickers: Int) throws -> LatencyRun {
        Report.progress("stream: latency, \(clients) SSE client(s), \(tickers) tickers at \(rate)/s")
        let session = try StreamSession(context, name: "stream-latency-\(clients)", clientCount: clients, threads: clients == 1 ? 1 : 2, timed: tickers)
        var run = LatencyRun(clients: clients, tickers: tickers)
        let measured = Result { () throws -> Void in
            try session.warmUp()
            let cpu = session.server.cpuSeconds
            try session.sendTimed(tickers, perSecond: rate)
            run.cpuSeconds = session.server.cpuSeconds - cpu
            run.cutOff = session.clients.cutOffCount
            run.counters = describe(session.server.feedCounters())
        }
        run.samples = session.stop()
        try measured.get()
        return run
    }

    /// One throughput run's measurements.
    struct ThroughputRun {
        var tickers: Int
        var seconds = 0.0
        var venueSeconds = 0.0
        var residentBefore = 0.0
        var residentPeak = 0.0
        var received = 0
        var cpuSeconds = 0.0
        var counters = ""
    }

    /// `tickers` written as fast as the socket takes them (128 frames a write), to one client.
    private static func throughput(_ context: BenchmarkContext, tickers: Int) throws -> ThroughputRun {
        Report.progress("stream: throughput, \(tickers) tickers as fast as the feed takes them, 1 SSE client")
        let session = try StreamSession(context, name: "stream-throughput", clientCount: 1, threads: 1, timed: 0)
        var run = ThroughputRun(tickers: tickers)
        let measured = Result { () throws -> Void in
            try session.warmUp()
            let progress = session.clients.progress[0]
            let last = session.next + tickers - 1
            let events = progress.events.load(ordering: .acquiring)
            let cpu = session.server.cpuSeconds
            run.residentBefore = try session.server.residentKilobytes()
            let start = Monotonic.nanoseconds()
            while session.next <= last { session.writer.sendBatch(through: min(last, session.next + 127)) }
            run.venueSeconds = Double(Monotonic.nanoseconds() - start) / 1e9
            try session.waitForEveryClient(through: last, within: 600)
            guard session.clients.cutOffCount == 0 else { throw session.failure("the client was cut off") }
            run.seconds = Double(progress.latestAt.load(ordering: .acquiring) - start) / 1e9
            run.received = progress.events.load(ordering: .acquiring) - events
            run.cpuSeconds = session.server.cpuSeconds - cpu
            run.residentPeak = try session.server.residentKilobytes("VmHWM")
            run.counters = describe(session.server.feedCounters())
        }
        _ = session.stop()
        try measured.get()
        return run
    }

    /// One memory run's measurements.
    struct MemoryRun {
        /// The server's RSS (KiB) once every client had the ticker numbered so (from the first after the warm-up).
        var resident: [(tickers: Int, kilobytes: Double)] = []
        var seconds = 0.0
        var received = 0
        var counters = ""
    }

    /// `tickers` to ``memoryClients`` clients, the venue at most ``memoryWindow`` ahead of the
    /// slowest; the server's RSS every 100,000, each read once every client has caught up.
    private static func memory(_ context: BenchmarkContext, tickers: Int) throws -> MemoryRun {
        Report.progress("stream: memory, \(tickers) tickers to \(memoryClients) SSE clients")
        let session = try StreamSession(context, name: "stream-memory", clientCount: memoryClients, threads: 2, timed: 0)
        var run = MemoryRun()
        let measured = Result { () throws -> Void in
            try session.warmUp()
            let first = session.next
            let events = session.clients.progress.map { $0.events.load(ordering: .acquiring) }.reduce(0, +)
            let start = Monotonic.nanoseconds()
            for checkpoint in stride(from: 100_000, through: tickers, by: 100_000) {
                let target = first + checkpoint - 1
                var slowest = session.clients.slowestLatest
                var movedAt = Monotonic.nanoseconds()
                while session.next <= target {
                    let allowed = min(target, slowest + memoryWindow)
                    if session.next <= allowed {
                        session.writer.sendBatch(through: min(allowed, session.next + 63))
                    } else {
                        usleep(50)
                    }
                    let now = session.clients.slowestLatest
                    if now != slowest {
                        slowest = now
                        movedAt = Monotonic.nanoseconds()
                    } else if Monotonic.nanoseconds() - movedAt > 30_000_000_000 || session.clients.cutOffCount > 0 {
                        throw session.failure("the slowest client stayed at ticker \(slowest) for 30 s, or a client was cut off")
                    }
                }
                try session.waitForEveryClient(through: target, within: 300)
                guard session.clients.cutOffCount == 0 else { throw session.failure("\(session.clients.cutOffCount) client(s) were cut off") }
                run.resident.append((checkpoint, try session.server.residentKilobytes()))
            }
            run.seconds = Double(Monotonic.nanoseconds() - start) / 1e9
            run.received = session.clients.progress.map { $0.events.load(ordering: .acquiring) }.reduce(0, +) - events
            run.counters = describe(session.server.feedCounters())
        }
        _ = session.stop()
        try measured.get()
        return run
    }

    static func describe(_ counters: (messages: Int, reconnects: Int, gaps: Int)?) -> String {
        guard let counters else { return "(no /metrics)" }
        return "\(grouped(counters.messages)) messages/\(counters.reconnects) reconnects/\(counters.gaps) gaps"
    }

    /// Raises this process's soft limit on descriptors to `wanted` (the children inherit it), within the hard limit.
    static func raiseDescriptorLimit(to wanted: Int, for purpose: String) throws {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        guard limit.rlim_cur < rlim_t(wanted) else { return }
        guard limit.rlim_max >= rlim_t(wanted) else {
            throw BenchmarkError("\(purpose) need \(wanted) descriptors; the hard limit is \(limit.rlim_max) (raise it, e.g. ulimit -Hn)")
        }
        limit.rlim_cur = rlim_t(wanted)
        guard setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else {
            throw BenchmarkError("\(purpose): cannot raise the descriptor limit to \(wanted): \(String(cString: strerror(errno)))")
        }
    }

    private static func grouped(_ value: Int) -> String { Report.grouped(value) }
}
