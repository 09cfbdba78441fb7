import Glibc

/// Case 6: peak resident memory (ru_maxrss) of the startup case's fetch, and of
/// `pricehost watch` over 100, 1000 (and 2000) ticks: a watch that keeps
/// something per tick grows with the ticks. The target is on the last step.
enum MemoryCase {
    /// The shortest `watch --interval` (Sources/PriceHost/CommandLine/Invocation.swift); each tick
    /// sleeps the interval ±10% (WatchCommand.swift): N ticks take about N / 10 seconds.
    static let interval = "0.1"
    static let intervalSeconds = 0.1
    /// Copies of each watch run side by side: the median of three, for no more wall time.
    static let copies = 3
    /// Growth from 100 to 1000 ticks still called flat.
    static let flatKilobytes = 512.0

    static func run(_ context: BenchmarkContext) throws -> [TargetOutcome] {
        let locations = context.locations
        let floor = TimedCommand(label: "hello-foundation (the floor)", command: Command(locations.helloFoundation))
        let fetch = TimedCommand(label: "pricehost fetch --provider file --asset BTC", command: context.fileFetch)
        Report.progress("memory: \(context.runs) interleaved runs of fetch and hello-foundation")
        _ = try Timing.warmUp(floor.command, scratch: context.scratch)
        _ = try context.warmUpFetchOfBTC(fetch.command)
        let timings = try Timing.interleaved([floor, fetch], runs: context.runs)

        let tickCounts = context.options.quick ? [100, 1000] : [100, 1000, 2000]
        let watches = try runWatches(tickCounts, context)

        Report.section("memory: peak resident set size, ru_maxrss (fetch: \(context.runs) runs; watch: \(copies) side by side)")
        Report.note("watch runs at --interval \(interval), its shortest, so 1000 ticks take about 100 s; all watch runs at once.")
        var rows = timings.map { timing in
            Row(what: timing.label, median: Report.kilobytes(timing.maxResidentKilobytes.median),
                spread: range(timing.maxResidentKilobytes))
        }
        for (ticks, samples) in zip(tickCounts, watches.kilobytes) {
            rows.append(Row(what: "pricehost watch --ticks \(ticks)", median: Report.kilobytes(samples.median), spread: range(samples)))
        }
        // Growth from each count to the next. The verdict is on the last step: from 1000
        // to 2000 ticks (the full run), when the host's bounded records of recent
        // fetches (1024 of them) are full and only a leak could still grow; the quick
        // run has only 100 -> 1000, which includes filling them.
        var outcome: TargetOutcome?
        let steps = Array(zip(zip(tickCounts, watches.kilobytes), zip(tickCounts, watches.kilobytes).dropFirst()))
        for (index, step) in steps.enumerated() {
            let ((fromTicks, from), (toTicks, to)) = step
            let growth = to.median - from.median
            var row = Row(what: "growth, \(fromTicks) -> \(toTicks) ticks", median: Report.signedKilobytes(growth))
            if index == steps.count - 1 {
                row.target = "<= +\(Int(flatKilobytes)) KiB"
                row.verdict = growth <= flatKilobytes ? "flat" : "MISSED (grows)"
                outcome = TargetOutcome(name: "memory: watch growth, \(fromTicks) -> \(toTicks) ticks", figure: Report.signedKilobytes(growth),
                                        target: "<= +\(Int(flatKilobytes)) KiB", met: growth <= flatKilobytes)
            }
            rows.append(row)
        }
        Report.table(rows, spreadHeading: "min-max")
        Report.note("watch: \(watchCommand(ticks: tickCounts[0], context)) (and the other tick counts)")
        Report.note("wall time of the watch runs: " + zip(tickCounts, watches.seconds).map { "\($0) ticks \(Int($1.rounded())) s" }.joined(separator: ", "))
        return outcome.map { [$0] } ?? []
    }

    private static func watchCommand(ticks: Int, _ context: BenchmarkContext) -> Command {
        Command(context.locations.pricehost, ["watch", "--provider", "file", "--asset", "BTC", "--interval", interval,
                                              "--ticks", String(ticks), "--config", context.locations.pluginsConfig])
    }

    private static func range(_ samples: Samples) -> String {
        "\(Report.kilobytes(samples.sorted[0]).dropLast(4))-\(Report.kilobytes(samples.sorted[samples.count - 1]))"
    }

    /// Runs `copies` of the watch for each tick count, all at once (they sleep
    /// nearly all the time), and checks each printed one quote per tick.
    /// - Returns: per tick count, the peak RSS of its copies and the longest wall time in seconds.
    private static func runWatches(_ tickCounts: [Int], _ context: BenchmarkContext) throws -> (kilobytes: [Samples], seconds: [Double]) {
        let oneTick = watchCommand(ticks: 1, context)
        let warmUp = try Timing.warmUp(oneTick, scratch: context.scratch)
        guard warmUp.lines.count == 1, warmUp.lines[0].contains(#""amount""#) else {
            throw Timing.failure("the warm-up run of this command did not print one quote", oneTick, warmUp)
        }
        let longest = tickCounts.max() ?? 0
        Report.progress("memory: \(copies) copies each of watch for \(tickCounts.map(String.init).joined(separator: ", ")) ticks at "
                        + "--interval \(interval), side by side: about \(Int(Double(longest) * intervalSeconds) + 1) s (nothing else runs meanwhile)")

        var jobs: [(ticks: Int, child: StartedChild, output: String, errors: String)] = []
        do {
            for ticks in tickCounts {
                for _ in 0..<copies {
                    let output = context.scratch.uniquePath("watch-\(ticks)", suffix: "out")
                    let errors = context.scratch.uniquePath("watch-\(ticks)", suffix: "err")
                    // Each tick sleeps at most 1.1 intervals; the rest is slack for a loaded machine.
                    let timeout = Double(ticks) * intervalSeconds * 1.2 + 120
                    let child = try Children.start(watchCommand(ticks: ticks, context), standardOutput: .file(output),
                                                       standardError: .file(errors), timeoutSeconds: timeout)
                    jobs.append((ticks, child, output, errors))
                }
            }
            var kilobytes: [Int: [Double]] = [:]
            var seconds: [Int: Double] = [:]
            for (index, job) in jobs.enumerated() {
                let result = job.child.waitForExit()
                let captured = Captured(standardOutput: ScratchDirectory.contents(of: job.output),
                                        standardError: ScratchDirectory.contents(of: job.errors))
                guard result.succeeded else {
                    jobs.removeFirst(index + 1)
                    throw Timing.failure("this watch \(result.endingDescription)", job.child.command, captured)
                }
                let quotes = captured.lines.filter { $0.contains(#""amount""#) }.count
                guard quotes == job.ticks, captured.lines.count == job.ticks else {
                    jobs.removeFirst(index + 1)
                    throw Timing.failure("this watch printed \(captured.lines.count) lines with \(quotes) quotes, not \(job.ticks)", job.child.command, captured)
                }
                kilobytes[job.ticks, default: []].append(Double(result.maxResidentKilobytes))
                seconds[job.ticks] = max(seconds[job.ticks] ?? 0, Double(result.elapsedNanoseconds) / 1e9)
            }
            return (tickCounts.map { Samples(kilobytes[$0] ?? []) }, tickCounts.map { seconds[$0] ?? 0 })
        } catch {
            for job in jobs {
                kill(job.child.pid, SIGKILL)
                _ = job.child.waitForExit()
            }
            throw error
        }
    }
}
