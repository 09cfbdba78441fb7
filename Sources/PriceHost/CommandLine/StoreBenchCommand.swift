import FoundationEssentials
import Glibc
import PriceHostCore
import PriceHostStore
import ProviderABI

/// `pricehost __store-bench MODE --path PATH …` (internal): what `Benchmarks/run --only store` measures of the
/// quote store, done through the store itself (``QuoteStore`` is not public, and the benchmarks package sees
/// only what is). Each mode prints one JSON line on stdout.
///
/// - `ingest [--count N] [--series N] [--rate R]`: records N quotes (``StoreBenchWorkload``, made before the
///   clock starts, 1 ms apart in turn over the series) through ``QuoteStore/record(_:)``. With `--rate 0` (the
///   default) in chunks of ``chunk`` with a flush after each, so every batch is one chunk and the writer never
///   waits: its throughput. With `--rate R`, R a second, paced every millisecond and left to the writer's own
///   100 ms batches, then one flush: whether it keeps up, by the quotes dropped and the deepest queue seen.
/// - `fill [--days D] [--now TIME]`: one pair (BTC-USD, coinbase) to TIME (default now): a quote a minute for the
///   D days before the last 7, a quote a second for the last 7, all through the writer; reopened, its prune drops
///   the raw quotes past 7 days as a long-running `serve` would.
/// - `reads [--count N] [--now TIME]`: on a filled store, `/v1/candles` and `/v1/price` without HTTP, timed.
struct StoreBenchCommand: SynchronousCommand {
    enum Mode: String, CaseIterable, Sendable {
        case ingest, fill, reads
    }

    var modeName: String?  // `MODE`, as given; `validate()` checks it
    /// `--path PATH`: the store's file, or a PostgreSQL database's URL (`postgres://…`), as in `store.url`.
    var path: String?
    /// `--count N`: quotes to ingest, or price reads to time.
    var count = 1_000_000
    /// `--series N`: how many series the ingested quotes go to in turn.
    var series = 4
    /// `--rate R`: ingest R quotes a second; 0, as fast as the writer takes chunks.
    var rate = 0
    /// `--days D`: how many days a filled store holds.
    var days = 90
    /// `--now TIME`, in Unix milliseconds.
    var now: Int64?

    /// Quotes a chunk: 100 ms of quotes at 100,000 a second, what the writer's batch holds at that rate.
    static let chunk = 10_000

    var mode: Mode? { modeName.flatMap(Mode.init(rawValue:)) }

    func run(in context: CommandContext) -> ExitStatus {
        guard let mode, let path else { return .usage }  // validate() guarantees both
        let absolute = Self.isServer(path) ? path : FilePath.absolute(path, relativeTo: FilePath.currentDirectory)
        let end = Self.minuteFloor(now ?? HistoryQuery.milliseconds(Date()))
        let result: Result<[(String, JSONValue)], QuoteStore.OpenError>
        switch mode {
        case .ingest: result = ingest(absolute, context: context)
        case .fill: result = fill(absolute, end: end, context: context)
        case .reads: result = reads(absolute, end: end, context: context)
        }
        switch result {
        case .success(let members):
            context.output(JSONValue.object(JSONObject([("mode", .string(mode.rawValue))] + members)).serialized)
            return .success
        case .failure(let error):
            context.diagnostics.error(error.description)
            return .configOrPlugin
        }
    }

    // MARK: ingest

    private func ingest(_ path: String, context: CommandContext) -> Result<[(String, JSONValue)], QuoteStore.OpenError> {
        var workload = StoreBenchWorkload()
        let first = HistoryQuery.milliseconds(Date()) - Int64(count)
        let quotes = (0..<count).map { workload.quote(series: $0 % series, at: first + Int64($0)) }
        let store: QuoteStore
        do {
            store = try QuoteStore.open(Self.settings(path), diagnostics: context.diagnostics)
        } catch {
            return .failure(error)
        }
        var deepest = 0
        let cpuAtStart = Self.cpuSeconds()
        let started = Self.monotonic()
        var lastPush = started
        if rate == 0 {
            for start in stride(from: 0, to: quotes.count, by: Self.chunk) {
                for quote in quotes[start..<min(quotes.count, start + Self.chunk)] { store.record(quote) }
                store.flush()
            }
        } else {
            var pushed = 0
            while pushed < quotes.count {
                let due = min(quotes.count, Int(Double(Self.monotonic() - started) / 1e9 * Double(rate)) + 1)
                while pushed < due {
                    store.record(quotes[pushed])
                    pushed += 1
                }
                deepest = max(deepest, store.queueDepth)
                usleep(1_000)
            }
            lastPush = Self.monotonic()
            store.flush()
        }
        let ended = Self.monotonic()
        let cpu = Self.cpuSeconds() - cpuAtStart
        let seconds = Double(ended - started) / 1e9
        let status = store.currentStatus
        store.close(within: .seconds(120))
        return .success([
            ("quotes", .number(String(count))), ("series", .number(String(series))),
            ("batch", .string(rate == 0 ? "\(Self.chunk) a flush" : "the writer's own")),
            ("rate", .number(String(rate))), ("seconds", .number(String(seconds))),
            // Both threads' CPU (the producer's is small: it waits in flush): less moved by other work than the wall clock.
            ("cpuSeconds", .number(String(cpu))),
            ("quotesPerSecond", .number(String(Int((Double(count) / seconds).rounded())))),
            ("dropped", .number(String(store.droppedCount))), ("deepestQueue", .number(String(deepest))),
            ("queueCapacity", .number(String(QuoteStore.queueCapacity))),
            // Paced: from the last quote pushed to the flush's return, what the writer was behind at the end.
            ("drainSeconds", .number(String(rate == 0 ? 0 : Double(ended - lastPush) / 1e9))),
            ("status", .string(Self.describe(status))),
        ] + footprint(store, path: path))
    }

    // MARK: fill

    private func fill(_ path: String, end: Int64, context: CommandContext) -> Result<[(String, JSONValue)], QuoteStore.OpenError> {
        let day: Int64 = 86_400_000
        let rawStart = end - Int64(StoreBenchWorkload.rawDays) * day
        var workload = StoreBenchWorkload()
        var quotes: [StoredQuote] = []
        for minute in stride(from: end - Int64(days) * day, to: rawStart, by: 60_000) {
            quotes.append(workload.quote(series: 0, at: minute + workload.below(60_000)))
        }
        let minuteQuotes = quotes.count
        for second in stride(from: rawStart, to: end, by: 1_000) {
            quotes.append(workload.quote(series: 0, at: second + workload.below(1_000)))
        }
        // The writer prunes after its first batch and then hourly, by its clock's wall time: at `end` here.
        let clock = FixedWallClock(wallNow: Date(timeIntervalSince1970: Double(end) / 1000))
        let settings = Self.settings(path)
        let started = Self.monotonic()
        var status = QuoteStore.Status.ok
        var dropped = 0
        for (session, range) in [0..<(quotes.count - 60), (quotes.count - 60)..<quotes.count].enumerated() {
            let store: QuoteStore
            do {
                store = try QuoteStore.open(settings, diagnostics: context.diagnostics, clock: clock)
            } catch {
                return .failure(error)
            }
            for start in stride(from: range.lowerBound, to: range.upperBound, by: Self.chunk) {
                for quote in quotes[start..<min(range.upperBound, start + Self.chunk)] { store.record(quote) }
                store.flush()
            }
            if session == 0 || status == .ok { status = store.currentStatus }
            dropped += store.droppedCount
            store.close(within: .seconds(120))
        }
        let seconds = Double(Self.monotonic() - started) / 1e9
        let reader: QuoteStore
        do {
            reader = try QuoteStore.open(settings, diagnostics: context.diagnostics, clock: clock)
        } catch {
            return .failure(error)
        }
        defer { reader.close() }
        return .success([
            ("days", .number(String(days))), ("end", .string(HistoryQuery.format(end))),
            ("quotesRecorded", .number(String(quotes.count))), ("minuteQuotes", .number(String(minuteQuotes))),
            ("secondQuotes", .number(String(quotes.count - minuteQuotes))), ("seconds", .number(String(seconds))),
            ("dropped", .number(String(dropped))), ("status", .string(Self.describe(status))),
        ] + footprint(reader, path: path))
    }

    // MARK: reads

    private func reads(_ path: String, end: Int64, context: CommandContext) -> Result<[(String, JSONValue)], QuoteStore.OpenError> {
        let store: QuoteStore
        do {
            store = try QuoteStore.open(Self.settings(path), diagnostics: context.diagnostics)
        } catch {
            return .failure(error)
        }
        defer { store.close() }
        let config = Config(path: "/nonexistent/plugins.json", directory: "/")
        let wallNow = HistoryQuery.milliseconds(Date())
        let asked = StoreBenchWorkload.series(0)
        let common = [("asset", asked.asset), ("provider", StoreBenchWorkload.provider)]
        let queries = StoreBenchQueries(end: end, days: days, now: wallNow)
        var members: [(String, JSONValue)] = [("end", .string(HistoryQuery.format(end)))]
        let candleRuns = max(11, min(201, count / 10))
        for (name, parameters) in [("candles1h", queries.wholeHours), ("candles1m", queries.mostMinutes)] {
            var sizes = Set<Int>()
            var failure: String?
            let times = (0..<candleRuns).map { _ in
                Self.timed {
                    switch Self.answer(store, common + parameters, kind: .candles, config: config, now: wallNow) {
                    case .success(.candles(_, let candles)): sizes.insert(candles.count)
                    case .success: failure = "not candles"
                    case .failure(let problem): failure = "\(problem.status) \(problem.message)"
                    }
                }
            }
            members.append((name, Self.summary(times, extra: [("query", .string(Self.queryText(common + parameters))),
                                                               ("candles", .string(sizes.sorted().map(String.init).joined(separator: ","))),
                                                               ("failure", failure.map(JSONValue.string) ?? .null)])))
        }
        var failures = 0
        var lastFailure: String?
        var random = StoreBenchWorkload()
        let times = (0..<count).map { _ in
            let at = queries.randomPriceTime(using: &random)
            return Self.timed {
                if case .failure(let problem) = Self.answer(store, common + [("at", HistoryQuery.format(at))], kind: .price,
                                                            config: config, now: wallNow) {
                    failures += 1
                    lastFailure = "\(problem.status) \(problem.message)"
                }
            }
        }
        members.append(("price", Self.summary(times, extra: [("failures", .number(String(failures))),
                                                             ("failure", lastFailure.map(JSONValue.string) ?? .null)])))
        return .success(members)
    }

    /// What a route does with the query: parse it, answer it from the store, write the body.
    private static func answer(_ store: QuoteStore, _ parameters: [(String, String)], kind: HistoryQuery.Kind, config: Config,
                               now: Int64) -> Result<HistoryResult, HistoryFailure> {
        let query: HistoryQuery
        do {
            query = try HistoryQuery.parse(parameters.map { (name: $0.0, value: $0.1) }, kind: kind)
        } catch {
            return .failure(HistoryFailure(status: 400, message: error.description))
        }
        let answer = store.answer(query, config: config, now: now)
        // The body is part of the answer's cost.
        if case .success(let result) = answer, result.json.isEmpty { return .failure(HistoryFailure(status: 500, message: "an empty body")) }
        return answer
    }

    // MARK: helpers

    private func footprint(_ store: QuoteStore, path: String) -> [(String, JSONValue)] {
        let onDisk = StoreBenchCommand.fileSize(path) + StoreBenchCommand.fileSize(path + "-wal")
        guard let footprint = (try? store.footprint()) ?? nil else { return [("fileBytes", .number(String(onDisk)))] }
        let tables = footprint.tableBytes.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.number(String($0.value))) }
        return [
            ("fileBytes", .number(String(onDisk))), ("databaseBytes", .number(String(footprint.bytes))),
            ("freePages", .number(String(footprint.freePages))), ("pageSize", .number(String(footprint.pageSize))),
            ("rawQuotes", .number(String(footprint.quotes))), ("candles", .number(String(footprint.candles))),
            ("tableBytes", .object(JSONObject(tables))),
        ]
    }

    private static func summary(_ nanoseconds: [UInt64], extra: [(String, JSONValue)]) -> JSONValue {
        let sorted = nanoseconds.sorted()
        func milliseconds(_ fraction: Double) -> JSONValue {
            let index = min(sorted.count - 1, Int(Double(sorted.count) * fraction))
            let microseconds = (sorted[index] + 500) / 1_000
            let fraction = String(microseconds % 1_000)
            return .number("\(microseconds / 1_000)." + String(repeating: "0", count: 3 - fraction.count) + fraction)
        }
        return .object(JSONObject([("runs", .number(String(sorted.count))), ("p50Ms", milliseconds(0.5)), ("p99Ms", milliseconds(0.99)),
                                   ("maxMs", milliseconds(1))] + extra))
    }

    private static func queryText(_ parameters: [(String, String)]) -> String {
        parameters.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    private static func describe(_ status: QuoteStore.Status) -> String {
        switch status {
        case .ok: "ok"
        case .degraded(let reason): "degraded: \(reason)"
        }
    }

    private static func timed(_ body: () -> Void) -> UInt64 {
        let start = monotonic()
        body()
        return monotonic() - start
    }

    static func monotonic() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// User and system time of every thread of the process so far.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    static func fileSize(_ path: String) -> Int {
        var information = stat()
        return stat(path, &information) == 0 ? Int(information.st_size) : 0
    }

    static func minuteFloor(_ milliseconds: Int64) -> Int64 {
        milliseconds - ((milliseconds % 60_000) + 60_000) % 60_000
    }
}
