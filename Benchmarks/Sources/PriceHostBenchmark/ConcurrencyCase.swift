/// Case 5: twenty assets in one fetch against a server that waits 200 ms before
/// each answer: one after another that is 4 s; run concurrently, about 0.2 s.
enum ConcurrencyCase {
    static let targetMilliseconds = 600.0
    static let delayMilliseconds = 200
    static let assets = (1...20).map { "A\($0)" }
    /// Each run takes a quarter of a second or more; five are enough for a median.
    static let maxRuns = 5

    static func run(_ context: BenchmarkContext) throws -> [TargetOutcome] {
        let server = try SpotServer(delayMilliseconds: delayMilliseconds)
        defer { server.stop() }
        let config = try context.scratch.write(CoinbaseConfig.text(plugin: context.locations.coinbasePlugin, baseURL: server.baseURL),
                                               to: "slow.json")
        let command = Command(context.locations.pricehost, ["fetch", "--config", config, "--asset", assets.joined(separator: ",")])
        let runs = min(context.runs, maxRuns)
        Report.progress("concurrency: \(runs) runs of 20 assets, each answered after \(delayMilliseconds) ms")

        let before = server.requestCount
        let warmUp = try Timing.warmUp(command, scratch: context.scratch)
        let quoted = Set(warmUp.lines.compactMap { $0.split(separator: "-").first.map(String.init) })
        guard Set(assets).isSubset(of: quoted) else {
            throw Timing.failure("the warm-up run of this command did not print a quote for each of the 20 assets", command, warmUp)
        }
        var requestsPerRun = [server.requestCount - before]
        var milliseconds: [Double] = []
        for run in 1...runs {
            let before = server.requestCount
            let result = try Children.run(command, timeoutSeconds: Timing.timeoutSeconds)
            guard result.succeeded else {
                throw BenchmarkError("timed run \(run) of this command \(result.endingDescription), though its warm-up had worked:\n  \(command)")
            }
            milliseconds.append(result.milliseconds)
            requestsPerRun.append(server.requestCount - before)
        }
        let samples = Samples(milliseconds)
        let requestsRight = requestsPerRun.allSatisfy { $0 == assets.count }
        let met = samples.median < targetMilliseconds && requestsRight

        Report.section("concurrency: 20 assets, each answered after \(delayMilliseconds) ms (\(runs) runs)")
        var row = Row.timed("pricehost fetch --asset A1,...,A20 (coinbase)", samples)
        row.target = "< \(Int(targetMilliseconds)) ms"
        row.verdict = met ? "met" : "MISSED"
        Report.table([row])
        Report.note("one after another it would take \(assets.count * delayMilliseconds) ms; the server saw at most \(server.peakConcurrentRequests) requests at once")
        Report.note("requests per run (warm-up first): \(requestsPerRun.map(String.init).joined(separator: ", "))"
                    + (requestsRight ? " - 20 each, as expected" : " - NOT 20 each: the figure does not measure 20 requests"))
        context.noteStandardError(of: "fetch", warmUp)
        return [TargetOutcome(name: "concurrency: 20 assets at 200 ms each", figure: Report.milliseconds(samples.median),
                              target: "< \(Int(targetMilliseconds)) ms", met: met)]
    }
}
