/// Case 4: one networked fetch as a whole process, against curl doing the same
/// GET, both from a loopback server in this process that answers at once.
enum NetworkCase {
    static let target = 1.3

    static func run(_ context: BenchmarkContext) throws -> [TargetOutcome] {
        let server = try SpotServer(delayMilliseconds: 0)
        defer { server.stop() }
        let config = try context.scratch.write(CoinbaseConfig.text(plugin: context.locations.coinbasePlugin, baseURL: server.baseURL),
                                               to: "fast.json")
        let fetch = TimedCommand(label: "pricehost fetch --asset BTC (coinbase)",
                                 command: Command(context.locations.pricehost, ["fetch", "--config", config, "--asset", "BTC"]))
        let fetchOutput = try warmUp(fetch.command, context)
        var commands = [fetch]
        let curlPath = Locations.onPath("curl")
        if let curlPath {
            // -q: no ~/.curlrc, so the user's own curl settings cannot change (or redirect) the request.
            let curl = TimedCommand(label: "curl -q -s URL (one GET)",
                                    command: Command(curlPath, ["-q", "-s", server.baseURL + "/v2/prices/BTC-USD/spot"]))
            _ = try warmUp(curl.command, context)
            commands.insert(curl, at: 0)
        }
        Report.progress("network: \(context.runs) interleaved runs of \(commands.count) commands against 127.0.0.1:\(server.port)")
        let timings = try Timing.interleaved(commands, runs: context.runs)

        Report.section("network: one fetch over HTTP from a loopback server (\(context.runs) runs, interleaved)")
        let fetchTimes = timings[timings.count - 1].milliseconds
        var fetchRow = Row.timed(fetch.label, fetchTimes)
        var outcome: TargetOutcome
        if curlPath != nil {
            let curlTimes = timings[0].milliseconds
            let ratio = fetchTimes.median / curlTimes.median
            fetchRow.ratio = Report.ratio(ratio)
            fetchRow.target = "<= " + Report.ratio(target)
            fetchRow.verdict = ratio <= target ? "met" : "MISSED"
            Report.table([Row.timed(timings[0].label, curlTimes), fetchRow], ratioHeading: "vs curl")
            outcome = TargetOutcome(name: "network: fetch / curl", figure: Report.ratio(ratio),
                                    target: "<= " + Report.ratio(target), met: ratio <= target)
        } else {
            Report.table([fetchRow])
            Report.note("curl is not on PATH: no ratio")
            outcome = TargetOutcome(name: "network: fetch / curl", figure: "no curl on PATH",
                                    target: "<= " + Report.ratio(target), met: nil)
        }
        Report.note("fetch: \(fetch.command)")
        context.noteStandardError(of: "fetch", fetchOutput)
        let expected = commands.count * (context.runs + 1)
        if server.requestCount != expected {
            Report.note("note: the server had \(server.requestCount) requests, not the \(expected) made (retries?)")
        }
        return [outcome]
    }

    /// Warms `command` up and checks that it printed the server's amount.
    private static func warmUp(_ command: Command, _ context: BenchmarkContext) throws -> Captured {
        let captured = try Timing.warmUp(command, scratch: context.scratch)
        guard captured.standardOutput.contains(SpotServer.amount) else {
            throw Timing.failure("the warm-up run of this command did not print the loopback server's amount \(SpotServer.amount)", command, captured)
        }
        return captured
    }
}
