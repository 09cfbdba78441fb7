import PriceHostTesting
import ProviderABI

/// Case 4: one networked fetch as a whole process, against the floor of any Swift
/// host (curl-floor: Swift importing only Glibc, one GET through dlopen'ed libcurl),
/// against the floor of a host built as pricehost must be (curl-host-floor: the same
/// GET from a task, in a program that also links FoundationEssentials for Decimal),
/// and against curl(1), all from a loopback server in this process that answers at
/// once. Then the memory a fetch takes against a server that never stops sending.
enum NetworkCase {
    /// fetch / curl-floor.
    static let target = 1.15
    /// Peak RSS against an endless body, MiB, for one asset and for 20.
    static let memoryTarget = 64

    static func run(_ context: BenchmarkContext) throws -> [TargetOutcome] {
        let server = try SpotServer(delayMilliseconds: 0)
        defer { server.stop() }
        let config = try context.scratch.write(CoinbaseConfig.text(plugin: context.locations.coinbasePlugin, baseURL: server.baseURL),
                                               to: "fast.json")
        let url = server.baseURL + "/v2/prices/BTC-USD/spot"
        let fetch = TimedCommand(label: "pricehost fetch --provider coinbase --asset BTC",
                                 command: Command(context.locations.pricehost, ["fetch", "--config", config, "--provider", "coinbase", "--asset", "BTC"]))
        let floor = TimedCommand(label: "curl-floor URL (Swift, Glibc only, one GET)", command: Command(context.locations.curlFloor, [url]))
        let hostFloor = TimedCommand(label: "curl-host-floor URL (+ Decimal, a task)", command: Command(context.locations.curlHostFloor, [url]))
        // -q: no ~/.curlrc, so the user's own curl settings cannot change (or redirect) the request.
        let curl = Locations.onPath("curl").map { path in
            TimedCommand(label: "curl -q -s URL (one GET)", command: Command(path, ["-q", "-s", url]))
        }
        let commands = [curl, floor, hostFloor, fetch].compactMap { $0 }
        var fetchOutput = Captured(standardOutput: "", standardError: "")
        for command in commands {
            let captured = try warmUp(command.command, context)
            if command.label == fetch.label { fetchOutput = captured }
        }

        Report.progress("network: \(context.runs) interleaved runs of \(commands.count) commands against \(server.baseURL)")
        let timings = try Timing.interleaved(commands, runs: context.runs)
        let times = Dictionary(uniqueKeysWithValues: zip(commands.map(\.label), timings.map(\.milliseconds)))
        guard let floorTimes = times[floor.label], let hostFloorTimes = times[hostFloor.label], let fetchTimes = times[fetch.label] else {
            throw BenchmarkError("network: a timed command is missing from the run")
        }

        Report.section("network: one fetch over HTTP from a loopback server (\(context.runs) runs, interleaved)")
        var rows: [Row] = []
        if let curl, let curlTimes = times[curl.label] {
            rows.append(Row.timed(curl.label, curlTimes))
        }
        var floorRow = Row.timed(floor.label, floorTimes)
        floorRow.ratio = "1.00x"
        rows.append(floorRow)
        var hostFloorRow = Row.timed(hostFloor.label, hostFloorTimes)
        hostFloorRow.ratio = Report.ratio(hostFloorTimes.median / floorTimes.median)
        rows.append(hostFloorRow)
        let ratio = fetchTimes.median / floorTimes.median
        var fetchRow = Row.timed(fetch.label, fetchTimes)
        fetchRow.ratio = Report.ratio(ratio)
        fetchRow.target = "<= " + Report.ratio(target)
        fetchRow.verdict = ratio <= target ? "met" : "MISSED"
        rows.append(fetchRow)
        Report.table(rows, ratioHeading: "vs floor")
        if let curl, let curlTimes = times[curl.label] {
            Report.note("against curl: curl-floor \(Report.ratio(floorTimes.median / curlTimes.median)), fetch \(Report.ratio(fetchTimes.median / curlTimes.median))")
        } else {
            Report.note("curl is not on PATH: no ratio to curl")
        }
        // The part of the gap that is pricehost's own work, and not the libraries any such host links.
        Report.note("fetch / curl-host-floor: \(Report.ratio(fetchTimes.median / hostFloorTimes.median))")
        Report.note("fetch: \(fetch.command)")
        context.noteStandardError(of: "fetch", fetchOutput)
        let outcome = TargetOutcome(name: "network: fetch / curl-floor", figure: Report.ratio(ratio),
                                    target: "<= " + Report.ratio(target), met: ratio <= target)
        return [outcome] + (try capMemory(context))
    }

    /// Peak RSS of a fetch whose server streams a chunked body without end, with
    /// `maxResponseBytes` at 1 MiB: for one asset, and for 20 assets at once.
    private static func capMemory(_ context: BenchmarkContext) throws -> [TargetOutcome] {
        let chunk = Array(String(repeating: "7", count: 16_384).utf8)
        let head = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        let framed = Array("4000\r\n".utf8) + chunk + Array("\r\n".utf8)
        let server: LoopbackHTTPServer
        do {
            // At most 256 MiB or 30 s per connection: far past the cap, bounded all the same.
            server = try LoopbackHTTPServer { _, _ in .misbehaving(.endless(head: head, chunk: framed, limit: 256 << 20, seconds: 30)) }
        } catch {
            throw BenchmarkError("network: loopback server: \(error)")
        }
        defer { server.stop() }
        let config = try context.scratch.write("""
            {"plugins": [\(JSONValue.quoted(context.locations.coinbasePlugin))],
             "providers": {"coinbase": {"baseURL": \(JSONValue.quoted(server.baseURL)), "maxResponseBytes": 1048576, "maxConcurrentRequests": 20, "maxAttempts": 1}}}

            """, to: "endless.json")
        let assets = ["BTC", "ETH", "SOL", "XRP", "ADA", "DOGE", "DOT", "LTC", "LINK", "AVAX",
                      "ATOM", "XLM", "ETC", "BCH", "UNI", "AAVE", "FIL", "NEAR", "ALGO", "XTZ"]
        Report.section("network: peak RSS against an endless chunked body, maxResponseBytes 1 MiB")
        var rows: [Row] = []
        var outcomes: [TargetOutcome] = []
        for count in [1, 20] {
            let command = Command(context.locations.pricehost, ["fetch", "--config", config, "--provider", "coinbase",
                                                                "--asset", assets.prefix(count).joined(separator: ",")])
            let errors = context.scratch.uniquePath("endless-\(count)", suffix: "err")
            let result = try Children.run(command, standardError: .file(errors), timeoutSeconds: 120)
            let stderr = ScratchDirectory.contents(of: errors)
            guard case .exited(let status) = result.outcome.ending, status != 0, stderr.contains("1048576") else {
                throw Timing.failure("a fetch against an endless body did not fail on the cap (\(result.endingDescription))", command,
                                     Captured(standardOutput: "", standardError: stderr))
            }
            let mebibytes = Double(result.maxResidentKilobytes) / 1024
            let met = mebibytes <= Double(memoryTarget)
            rows.append(Row(what: "\(count) asset\(count == 1 ? "" : "s") at once", median: String(format1: mebibytes) + " MiB",
                            spread: "", ratio: "", target: "<= \(memoryTarget) MiB", verdict: met ? "met" : "MISSED"))
            outcomes.append(TargetOutcome(name: "network: peak RSS, endless body, \(count) asset\(count == 1 ? "" : "s")",
                                          figure: String(format1: mebibytes) + " MiB", target: "<= \(memoryTarget) MiB", met: met))
            if count == 1 { Report.note("stderr of 1 asset: \(stderr.split(separator: "\n").first ?? "")") }
        }
        Report.table(rows, spreadHeading: "", ratioHeading: "")
        Report.note("the server sent \(server.requestCounts.values.reduce(0, +)) responses; each fetch exits non-zero on the cap")
        return outcomes
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

private extension String {
    /// One decimal place: 12.3.
    init(format1 value: Double) {
        let tenths = Int((value * 10).rounded())
        self = "\(tenths / 10).\(tenths % 10)"
    }
}
