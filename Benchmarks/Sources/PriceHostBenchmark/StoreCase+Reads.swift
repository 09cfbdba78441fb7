import Foundation
import Glibc
import PriceHostTesting
import ProviderABI

/// Reads of the 90-day store: in-process (`__store-bench reads`: the store's answer and its JSON, no HTTP), then
/// through `pricehost serve` on that store, over one keep-alive loopback connection: every 1-hour candle of the
/// 90 days (2,160), the most 1-minute candles one answer holds (10,000), and the price at random times of the
/// last 7 days. The candle queries are the ones `__store-bench reads` printed, so both ask the same.
extension StoreCase {
    static let candlesTargetMilliseconds = 50.0
    static let priceP99TargetMilliseconds = 1.0

    /// One query's timings, ms.
    struct ReadFigure {
        var runs: Int
        var p50: Double
        var p99: Double
        var max: Double
    }

    /// The three queries' figures, in-process and through serve (nil, and why, when serve could not answer them).
    struct Reads {
        var hoursQuery: String
        var minutesQuery: String
        var inProcess: [ReadFigure]
        var http: [ReadFigure]?
        var httpMissing: String?
    }

    static func readRounds(_ context: BenchmarkContext, _ store: FilledStore, prices: Int, candleRuns: Int) throws -> Reads {
        Report.progress("store: reads of the 90-day store in-process, \(prices) prices")
        let line = try StoreBench.run(context, ["reads", "--path", store.path, "--now", store.end, "--count", String(prices)])
        var inProcess: [ReadFigure] = []
        var queries: [String] = []
        for (key, expected) in [("candles1h", "2160"), ("candles1m", "10000"), ("price", nil)] {
            let figures = try line.nested(key)
            if let failure = figures.text("failure") { throw BenchmarkError("store: \(key) in-process failed: \(failure)\n  \(line.command)") }
            if let expected {
                guard figures.text("candles") == expected else {
                    throw BenchmarkError("store: \(key) in-process gave \(figures.text("candles") ?? "?") candles, not \(expected):\n  \(line.command)")
                }
                queries.append(figures.text("query") ?? "")
            }
            inProcess.append(ReadFigure(runs: Int(try figures.number("runs")), p50: try figures.number("p50Ms"), p99: try figures.number("p99Ms"),
                                        max: try figures.number("maxMs")))
        }
        var reads = Reads(hoursQuery: queries[0], minutesQuery: queries[1], inProcess: inProcess)
        do {
            reads.http = try throughServe(context, store, queries: queries, prices: prices, candleRuns: candleRuns)
        } catch let missing as RouteMissing {
            reads.httpMissing = missing.description
        }
        return reads
    }

    /// Serve could not answer the routes (before it has them): the reads over HTTP are not measured, and the report says why.
    struct RouteMissing: Error, CustomStringConvertible {
        let description: String
    }

    private static func throughServe(_ context: BenchmarkContext, _ store: FilledStore, queries: [String], prices: Int,
                                     candleRuns: Int) throws -> [ReadFigure] {
        let config = try context.scratch.write(CoinbaseConfig.text(plugin: context.locations.coinbasePlugin, baseURL: "http://127.0.0.1:9",
                                                                   store: #"{"url": \#(JSONValue.quoted(storeURL(store.path)))}"#),
                                               to: "store-serve.json")
        let errors = context.scratch.uniquePath("store-serve", suffix: "err")
        let command = Command(context.locations.pricehost, ["serve", "--listen", "127.0.0.1:0", "--config", config])
        let server = try Children.start(command, standardError: .file(errors), timeoutSeconds: 1800, extraEnvironment: ["PRICEHOST_LOG=warning"])
        defer {
            kill(server.pid, SIGTERM)
            _ = server.waitForExit()
        }
        let port = try ServeCase.waitForPort(errors, command)
        let connection = try LoopbackHTTPConnection(port: port, timeout: 30)
        let probe = try connection.get("/v1/candles?" + queries[0])
        guard probe.status == 200 else {
            throw RouteMissing(description: "serve answered GET /v1/candles with \(probe.status) \(probe.body.prefix(120))")
        }
        guard probe.headers["transfer-encoding"] == nil, probe.headers["content-length"] != nil else {
            throw BenchmarkError("store: serve answered /v1/candles without a Content-Length; the benchmark's client reads only that")
        }
        var figures: [ReadFigure] = []
        for (query, expected) in zip(queries, [2_160, 10_000]) {
            Report.progress("store: GET /v1/candles?\(query), \(candleRuns) times over one keep-alive connection")
            let path = "/v1/candles?" + query
            for _ in 0..<3 { _ = try connection.get(path) }
            var times: [Double] = []
            for _ in 0..<candleRuns {
                let start = Monotonic.nanoseconds()
                let reply = try connection.get(path)
                times.append(Double(Monotonic.nanoseconds() - start) / 1e6)
                let candles = reply.body.components(separatedBy: #""start""#).count - 1
                guard reply.status == 200, candles == expected else {
                    throw BenchmarkError("store: GET \(path) answered \(reply.status) with \(candles) candles, not \(expected): \(reply.body.prefix(200))")
                }
            }
            let samples = Samples(times)
            figures.append(ReadFigure(runs: times.count, p50: samples.median, p99: samples.percentile(0.99), max: samples.percentile(1)))
        }
        Report.progress("store: GET /v1/price at \(prices) random times of the last 7 days, over one keep-alive connection")
        let load = try LoadClient(ports: [port], connections: 1, paths: pricePaths(store, count: prices))
        let warmUp = 200
        _ = load.run(until: warmUp)
        load.resetLatencies()
        _ = load.run(until: warmUp + prices)
        let latencies = load.sortedLatencies().map { Double($0) / 1000 }
        // The client's count of requests issued runs one past each run's end: the second run makes one fewer.
        guard load.failureCount == 0, latencies.count >= prices - 1 else {
            throw BenchmarkError("store: \(load.failureCount) GET /v1/price request(s) failed or were not 200; serve's stderr:\n\(ScratchDirectory.contents(of: errors))")
        }
        let samples = Samples(latencies)
        figures.append(ReadFigure(runs: latencies.count, p50: samples.median, p99: samples.percentile(0.99), max: samples.percentile(1)))
        return figures
    }

    /// `/v1/price?…&at=` at `count` random times, to the millisecond, from a minute after the first raw quote
    /// the store keeps now (7 days before the later of its end and now) to its end.
    private static func pricePaths(_ store: FilledStore, count: Int) -> [String] {
        let formatter = ISO8601DateFormatter()
        let end = (formatter.date(from: store.end) ?? Date()).timeIntervalSince1970
        let low = max(end, Date().timeIntervalSince1970) - 7 * 86_400 + 60
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return (0..<count).map { _ in
            let at = Date(timeIntervalSince1970: (Double.random(in: low..<end) * 1000).rounded() / 1000)
            return "/v1/price?asset=BTC&provider=coinbase&at=" + formatter.string(from: at)
        }
    }

    /// The rows of the three queries and their outcomes: through serve when it answered, else not measured.
    /// The `store.url` of a store `__store-bench` was given: a file's path, or a PostgreSQL URL as it is.
    static func storeURL(_ path: String) -> String {
        path.hasPrefix("postgres://") ? path : "sqlite:" + path
    }

    /// - Parameters:
    ///   - candlesTarget: the bar of a candles request's median, ms.
    ///   - prefix: what the outcomes' names start with (the case).
    static func report(_ reads: Reads, candlesTarget: Double = candlesTargetMilliseconds, prefix: String = "store: ") -> ([Row], [TargetOutcome]) {
        let names = ["/v1/candles interval=1h, the whole 90 days (2,160 candles)", "/v1/candles interval=1m, 10,000 candles (one answer's most)",
                     "/v1/price?at= at random times of the last 7 days"]
        let targets = [candlesTarget, candlesTarget, priceP99TargetMilliseconds]
        var rows: [Row] = []
        var outcomes: [TargetOutcome] = []
        for index in 0..<3 {
            let isPrice = index == 2
            // Candles: a request's time, the median of the runs; the price: the p99 the issue sets.
            let target = (isPrice ? "p99" : "median") + " <= \(Report.milliseconds(targets[index]))"
            let local = reads.inProcess[index]
            if let http = reads.http?[index] {
                let figure = isPrice ? http.p99 : http.p50
                let met = figure <= targets[index]
                rows.append(Row(what: "\(names[index]) through serve, \(grouped(http.runs)) requests: p50 / p99 / max",
                                median: figures(http), target: target, verdict: met ? "met" : "MISSED"))
                outcomes.append(TargetOutcome(name: prefix + names[index], figure: Report.milliseconds(figure), target: target, met: met))
            } else {
                rows.append(Row(what: "\(names[index]) through serve", median: "not measured", target: target, verdict: "not measured"))
                outcomes.append(TargetOutcome(name: prefix + names[index], figure: "no route in serve", target: target, met: nil))
            }
            rows.append(Row(what: "  in-process (the store's answer and its JSON, no HTTP), \(grouped(local.runs)) runs: p50 / p99 / max",
                            median: figures(local)))
        }
        return (rows, outcomes)
    }

    private static func figures(_ figure: ReadFigure) -> String {
        String(format: "%.2f / %.2f / %.2f ms", figure.p50, figure.p99, figure.max)
    }

    static func readNotes(_ reads: Reads) -> [String] {
        var notes = ["reads: a store filled through the writer (a quote a minute for 83 days, then 1 a second for 7), serve on it",
                     "  (coinbase at 127.0.0.1:9, never asked), one keep-alive connection; candles: \(reads.hoursQuery); \(reads.minutesQuery)"]
        if let missing = reads.httpMissing { notes.append("  through serve: not measured: \(missing)") }
        return notes
    }
}
