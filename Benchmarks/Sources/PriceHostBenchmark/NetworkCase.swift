/// Case 4: one networked fetch as a whole process, against curl doing the same
/// GET, both from a loopback server in this process that answers at once. The
/// floor of any Swift program that links FoundationNetworking is an extra row.
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

        // -q: no ~/.curlrc, so the user's own curl settings cannot change (or redirect) the request.
        let curl = Locations.onPath("curl").map { path in
            TimedCommand(label: "curl -q -s URL (one GET)", command: Command(path, ["-q", "-s", server.baseURL + "/v2/prices/BTC-USD/spot"]))
        }
        if let curl { _ = try warmUp(curl.command, context) }

        let floorBuild = try NetworkingFloor.build(context)
        var floor: TimedCommand?
        if case .success(let command) = floorBuild {
            _ = try Timing.warmUp(command, scratch: context.scratch)
            floor = TimedCommand(label: "floor: hello world linking FoundationNetworking", command: command)
        }

        let commands = [floor, curl, fetch].compactMap { $0 }
        Report.progress("network: \(context.runs) interleaved runs of \(commands.count) commands against 127.0.0.1:\(server.port)")
        let timings = try Timing.interleaved(commands, runs: context.runs)
        let floorTimes = floor == nil ? nil : timings[0].milliseconds
        let curlTimes = curl == nil ? nil : timings[commands.count - 2].milliseconds
        let fetchTimes = timings[commands.count - 1].milliseconds

        Report.section("network: one fetch over HTTP from a loopback server (\(context.runs) runs, interleaved)")
        var rows: [Row] = []
        var outcome = TargetOutcome(name: "network: fetch / curl", figure: "no curl on PATH", target: "<= " + Report.ratio(target), met: nil)
        var fetchRow = Row.timed(fetch.label, fetchTimes)
        if let curl, let curlTimes {
            if let floor, let floorTimes {
                var floorRow = Row.timed(floor.label, floorTimes)
                floorRow.ratio = Report.ratio(floorTimes.median / curlTimes.median)
                floorRow.target = "(extra)"
                rows.append(floorRow)
            }
            rows.append(Row.timed(curl.label, curlTimes))
            let ratio = fetchTimes.median / curlTimes.median
            fetchRow.ratio = Report.ratio(ratio)
            fetchRow.target = "<= " + Report.ratio(target)
            fetchRow.verdict = ratio <= target ? "met" : "MISSED"
            outcome = TargetOutcome(name: "network: fetch / curl", figure: Report.ratio(ratio),
                                    target: "<= " + Report.ratio(target), met: ratio <= target)
        } else if let floor, let floorTimes {
            rows.append(Row.timed(floor.label, floorTimes))
        }
        rows.append(fetchRow)
        Report.table(rows, ratioHeading: "vs curl")
        if curl == nil { Report.note("curl is not on PATH: no ratio") }
        if case .failure(let why) = floorBuild { Report.note("no FoundationNetworking floor: \(why)") }
        Report.note("fetch: \(fetch.command)")
        context.noteStandardError(of: "fetch", fetchOutput)
        // curl and fetch make one request per run and one to warm up; the floor makes none.
        let expected = (curl == nil ? 1 : 2) * (context.runs + 1)
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
