/// Case 1: cold start of a whole `pricehost fetch` (file provider, shipped config)
/// against `hello-foundation`, the floor any Swift program using Foundation pays.
/// `pricehost --version` shows the fixed cost before any config or plugin.
/// Issue 17's bars: the fetch at most 1.1x the floor (stretch: 1.0x), `--version` at most 0.7x.
enum StartupCase {
    static let target = 1.1
    static let stretch = 1.0
    static let versionTarget = 0.7

    static func run(_ context: BenchmarkContext) throws -> [TargetOutcome] {
        let locations = context.locations
        let floor = TimedCommand(label: "hello-foundation (the floor)", command: Command(locations.helloFoundation))
        let version = TimedCommand(label: "pricehost --version", command: Command(locations.pricehost, ["--version"]))
        let fetch = TimedCommand(label: "pricehost fetch --provider file --asset BTC", command: context.fileFetch)
        Report.progress("startup: \(context.runs) interleaved runs of 3 commands")

        _ = try Timing.warmUp(floor.command, scratch: context.scratch)
        let versionOutput = try Timing.warmUp(version.command, scratch: context.scratch)
        guard versionOutput.standardOutput.hasPrefix("pricehost ") else {
            throw Timing.failure("the warm-up run of this command did not print a version", version.command, versionOutput)
        }
        let fetchOutput = try context.warmUpFetchOfBTC(fetch.command)
        let timings = try Timing.interleaved([floor, version, fetch], runs: context.runs)
        let (floorTimes, versionTimes, fetchTimes) = (timings[0].milliseconds, timings[1].milliseconds, timings[2].milliseconds)
        let fetchRatio = fetchTimes.median / floorTimes.median
        let versionRatio = versionTimes.median / floorTimes.median
        let met = fetchRatio <= target

        Report.section("startup: cold start of the whole process (\(context.runs) runs, interleaved)")
        var versionRow = Row.timed(version.label, versionTimes)
        versionRow.ratio = Report.ratio(versionRatio)
        versionRow.target = "<= " + Report.ratio(versionTarget)
        versionRow.verdict = versionRatio <= versionTarget ? "met" : "MISSED"
        var fetchRow = Row.timed(fetch.label, fetchTimes)
        fetchRow.ratio = Report.ratio(fetchRatio)
        fetchRow.target = "<= " + Report.ratio(target)
        fetchRow.verdict = met ? "met" : "MISSED"
        Report.table([Row.timed(floor.label, floorTimes), versionRow, fetchRow], ratioHeading: "vs floor")
        Report.note("stretch, fetch <= \(Report.ratio(stretch)): \(fetchRatio <= stretch ? "met" : "missed")")
        Report.note("fetch: \(fetch.command)")
        context.noteStandardError(of: "fetch", fetchOutput)
        return [TargetOutcome(name: "startup: fetch / hello-foundation", figure: Report.ratio(fetchRatio),
                              target: "<= " + Report.ratio(target), met: met),
                TargetOutcome(name: "startup: --version / hello-foundation", figure: Report.ratio(versionRatio),
                              target: "<= " + Report.ratio(versionTarget), met: versionRatio <= versionTarget)]
    }
}
