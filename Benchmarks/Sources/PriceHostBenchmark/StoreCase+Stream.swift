import Glibc
import ProviderABI

/// Serve's stream latency while it records every quote it gets, against the same run with the store off:
/// the stream case's venue, server and SSE client (``StreamSession``), one client, the venue writing
/// ``streamRate`` tickers a second, one a write at its time on the clock. Rounds alternate which side goes
/// first; each side's figure is the median of its rounds' p99s: on 2 shared cores one round's p99 moved from
/// 0.4 to 2.8 ms with the store off, more than the store moves it, and a median of 5 holds against one bad round.
extension StoreCase {
    static let streamRate = 10_000
    static let streamRatioTarget = 1.10

    /// One server's run.
    struct StreamRound {
        var recording: Bool
        var run: StreamCase.LatencyRun
        /// `pricehost_store_writes_total` after the run; nil when serve exports none (it does not record).
        var writes: Int?
        /// Tickers the venue wrote in all, the warm-up's included.
        var sent: Int
        var storeBytes: Int
        /// The host's steal over the timed part, seconds summed over the CPUs (``HostSteal``); nil where unknown.
        var steal: Double?
    }

    /// `--only store-stream`: this part alone, the one bar of the case that has been missed.
    static func runStream(_ context: BenchmarkContext) throws -> [TargetOutcome] {
        let loadAtStart = RunHeader.loadAverage()
        let rounds = try streamRounds(context, tickers: context.options.quick ? 30_000 : 100_000, rounds: context.options.quick ? 1 : 5)
        let loadAtEnd = RunHeader.loadAverage()
        let (rows, outcome) = report(rounds)
        Report.section("store-stream: serve's stream latency while its store records, against the store off (issue 35)")
        Report.note("load average at the start / end of the case: \(loadAtStart) / \(loadAtEnd) (2 shared cores: read the figures with it)")
        for note in streamNotes(rounds) { Report.note(note) }
        Report.table(rows, spreadHeading: "runs")
        return [outcome]
    }

    /// `--only store-stream-control`: the same rounds with the store off on both sides (an A/A control). The ratio of
    /// two identical sides' medians is this machine's noise: the spread a verdict on 1.10x is read against.
    static func runStreamControl(_ context: BenchmarkContext) throws -> [TargetOutcome] {
        let loadAtStart = RunHeader.loadAverage()
        let rounds = try streamRounds(context, tickers: context.options.quick ? 30_000 : 100_000, rounds: context.options.quick ? 1 : 5,
                                      control: true)
        let loadAtEnd = RunHeader.loadAverage()
        Report.section("store-stream-control: the store off on both sides (an A/A control for issue 35's 1.10x bar)")
        Report.note("load average at the start / end of the case: \(loadAtStart) / \(loadAtEnd)")
        var rows: [Row] = []
        for (label, side) in [("side A, the store off", rounds.filter { !$0.recording }), ("side B, the store off too", rounds.filter(\.recording))] {
            rows.append(Row(what: "stream, 1 client, \(label): p99, median of the rounds, ms", median: String(format: "%.2f", medianP99(side)),
                            spread: side.map { String(format: "%.2f", $0.run.percentile(0.99)) }.joined(separator: ", ")))
        }
        rows.append(Row(what: "  p99 B / A (identical sides: 1.00x but for the machine)", median: Report.ratio(p99Ratio(rounds))))
        Report.table(rows, spreadHeading: "runs")
        return []
    }

    /// - Parameter control: both sides with the store off (the `recording` side is then side B of an A/A control).
    static func streamRounds(_ context: BenchmarkContext, tickers: Int, rounds: Int, control: Bool = false) throws -> [StreamRound] {
        var results: [StreamRound] = []
        for round in 0..<rounds {
            for recording in round % 2 == 0 ? [false, true] : [true, false] {
                results.append(try streamRun(context, tickers: tickers, recording: recording, control: control))
            }
        }
        return results
    }

    private static func streamRun(_ context: BenchmarkContext, tickers: Int, recording: Bool, control: Bool) throws -> StreamRound {
        let side = control ? "off (the control's side \(recording ? "B" : "A"))" : recording ? "recording" : "off"
        Report.progress("store: stream latency, 1 SSE client, \(tickers) tickers at \(streamRate)/s, the store \(side)")
        let path = context.scratch.uniquePath("stream-store", suffix: "db")
        defer { StoreBench.remove(path) }
        let store = recording && !control ? #"{"url": \#(JSONValue.quoted("sqlite:" + path))}"# : StreamServer.storeOff
        let session = try StreamSession(context, name: "store-stream-\(recording ? "on" : "off")", clientCount: 1, threads: 1,
                                        timed: tickers, store: store)
        var round = StreamRound(recording: recording, run: StreamCase.LatencyRun(clients: 1, tickers: tickers), sent: 0, storeBytes: 0)
        let measured = Result { () throws -> Void in
            try session.warmUp()
            let cpu = session.server.cpuSeconds
            let steal = HostSteal.seconds()
            try session.sendTimed(tickers, perSecond: streamRate)
            round.run.cpuSeconds = session.server.cpuSeconds - cpu
            if let steal, let now = HostSteal.seconds() { round.steal = now - steal }
            round.run.cutOff = session.clients.cutOffCount
            round.run.counters = StreamCase.describe(session.server.feedCounters())
            round.sent = session.next
            // The writer commits every 100 ms: its last batch, then the counter.
            usleep(300_000)
            round.writes = session.server.metrics().flatMap { StreamServer.sample("pricehost_store_writes_total", in: $0) }
        }
        round.run.samples = session.stop()
        try measured.get()
        round.storeBytes = ["", "-wal"].map { fileSize(path + $0) }.reduce(0, +)
        return round
    }

    static func fileSize(_ path: String) -> Int {
        var information = stat()
        return stat(path, &information) == 0 ? Int(information.st_size) : 0
    }

    /// The two sides' rows and the target's outcome: not measured while serve records nothing.
    static func report(_ rounds: [StreamRound]) -> ([Row], TargetOutcome) {
        let off = rounds.filter { !$0.recording }
        let on = rounds.filter(\.recording)
        let tickers = rounds[0].run.tickers
        var rows: [Row] = []
        for (label, side) in [("the store off", off), ("recording every quote", on)] {
            let typical = side.sorted { $0.run.percentile(0.99) < $1.run.percentile(0.99) }[side.count / 2].run
            rows.append(Row(what: "stream, 1 client, \(grouped(tickers)) tickers at \(grouped(streamRate))/s, \(label): p50 / p90 / p99 / max, ms",
                            median: typical.percentiles, spread: side.map { String(format: "%.2f", $0.run.percentile(0.99)) }.joined(separator: ", ")))
            rows.append(Row(what: "  p99, median of the rounds; server CPU per ticker", median: String(format: "%.2f ms; ", medianP99(side)) + typical.cpuPerTicker))
            let steals = side.compactMap(\.steal)
            if steals.count == side.count {
                rows.append(Row(what: "  the host's steal during each round's timed part (other guests on these cores), ms",
                                median: String(format: "%.0f", Samples(steals).median * 1000),
                                spread: steals.map { String(format: "%.0f", $0 * 1000) }.joined(separator: ", ")))
            }
        }
        let ratio = p99Ratio(rounds)
        let target = "<= \(Report.ratio(streamRatioTarget))"
        let name = "store: stream p99 recording 10,000 quotes/s / store off"
        guard on.allSatisfy({ ($0.writes ?? 0) > 0 }) else {
            rows.append(Row(what: "  p99 recording / off (serve wrote nothing to its store: it does not record yet)", median: Report.ratio(ratio),
                            target: target, verdict: "not measured"))
            return (rows, TargetOutcome(name: name, figure: "serve does not record", target: target, met: nil))
        }
        let met = ratio <= streamRatioTarget
        rows.append(Row(what: "  p99 recording / off", median: Report.ratio(ratio), target: target, verdict: met ? "met" : "MISSED"))
        return (rows, TargetOutcome(name: name, figure: Report.ratio(ratio), target: target, met: met))
    }

    /// The median of `side`'s rounds' p99s, ms.
    static func medianP99(_ side: [StreamRound]) -> Double {
        Samples(side.map { $0.run.percentile(0.99) }).median
    }

    /// The recording side's median p99 over the other's (side B over side A, in the control).
    static func p99Ratio(_ rounds: [StreamRound]) -> Double {
        medianP99(rounds.filter(\.recording)) / medianP99(rounds.filter { !$0.recording })
    }

    /// What the stream rounds wrote, for the notes under the table.
    static func streamNotes(_ rounds: [StreamRound]) -> [String] {
        let on = rounds.filter(\.recording).map { round in
            "\(round.writes.map(grouped) ?? "no pricehost_store_writes_total") of \(grouped(round.sent)) tickers, \(grouped(round.storeBytes)) bytes"
        }
        return ["stream: the stream case's venue and SSE client, a fresh serve per round, rounds alternating which side goes first;",
                "  recorded (writes_total, of the tickers sent with the warm-up's; the file): " + on.joined(separator: "; "),
                "  feed counters: " + rounds.map(\.run.counters).joined(separator: "; ")]
    }
}
