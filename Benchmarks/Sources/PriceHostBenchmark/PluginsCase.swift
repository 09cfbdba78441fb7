import ProviderABI

/// Case 2: cold `pricehost providers` with 0, 1, 10 and 100 generated C plugins,
/// for the cost of each plugin added and whether it grows linearly.
enum PluginsCase {
    static let counts = [0, 1, 10, 100]
    /// Milliseconds per plugin added.
    static let target = 0.2

    static func run(_ context: BenchmarkContext) throws -> [TargetOutcome] {
        guard Locations.onPath("cc") != nil else {
            throw BenchmarkError("plugins: no cc on PATH to compile the generated C plugins")
        }
        let scratch = context.scratch
        let directory = try scratch.makeDirectory("plugins")
        let source = context.locations.cPluginSource
        let names = GeneratedPlugin.names(counts.max() ?? 0)
        Report.progress("plugins: compiling \(names.count) C plugins, 2 at a time")
        let libraries = try GeneratedPlugin.compile(names, source: source, into: directory,
                                                    includeDirectory: context.locations.abiHeaderDirectory)

        var commands: [TimedCommand] = []
        for count in counts {
            let config = try scratch.write(#"{"plugins": \#(JSONValue.array(libraries.prefix(count).map(JSONValue.string)).serialized)}"# + "\n",
                                           to: "plugins-\(count).json")
            let command = Command(context.locations.pricehost, ["providers", "--config", config])
            try checkListing(try Timing.warmUp(command, scratch: scratch), names: Array(names.prefix(count)), command)
            commands.append(TimedCommand(label: count == 0 ? "0 plugins (\"plugins\": [])" : "\(count) plugin\(count == 1 ? "" : "s")",
                                         command: command))
        }
        Report.progress("plugins: \(context.runs) interleaved runs of \(commands.count) configs")
        let timings = try Timing.interleaved(commands, runs: context.runs)
        let medians = Dictionary(uniqueKeysWithValues: zip(counts, timings.map(\.milliseconds.median)))
        let (base, one, ten, hundred) = (medians[0] ?? 0, medians[1] ?? 0, medians[10] ?? 0, medians[100] ?? 0)
        let perPlugin = (hundred - one) / 99
        let slopeLow = (ten - one) / 9
        let slopeHigh = (hundred - ten) / 90
        let met = perPlugin <= target

        Report.section("plugins: cold `pricehost providers` with generated C plugins (\(context.runs) runs, interleaved)")
        var rows = zip(counts, timings).map { count, timing in
            var row = Row.timed(timing.label, timing.milliseconds)
            if count > 0 { row.ratio = Report.signedMilliseconds(timing.milliseconds.median - base) }
            return row
        }
        rows.append(Row(what: "cost per added plugin, (t100 - t1) / 99", median: String(format: "%.3f ms", perPlugin),
                        target: String(format: "<= %.2f ms", target), verdict: met ? "met" : "MISSED"))
        var linearity = Row(what: "linearity, slope 10->100 / slope 1->10")
        if slopeLow > 0 {
            let value = slopeHigh / slopeLow
            linearity.median = String(format: "%.2f", value)
            linearity.target = "0.5-2"
            linearity.verdict = (0.5...2).contains(value) ? "linear" : "not linear?"
        } else {
            linearity.median = "n/a"
            linearity.verdict = "(the 1->10 slope is not above 0)"
        }
        rows.append(linearity)
        Report.table(rows, ratioHeading: "vs 0")
        Report.note(String(format: "slopes: 1->10 %.3f ms per plugin, 10->100 %.3f ms per plugin; ", slopeLow, slopeHigh)
                    + "0->1 \(Report.signedMilliseconds(one - base)) (the first plugin also")
        Report.note("  pays for the loader's first dlopen). The 1->10 slope rests on a difference of ~9 plugins' cost,")
        Report.note("  within the run-to-run noise of a whole process, so the linearity figure is only a rough check.")
        Report.note("each plugin: Plugins/PegProvider/peg_provider.c, built by the tests' CPluginCompiler (cc -shared -fPIC -O1 -DPEG_PROVIDER_NAME=...), absolute paths in \"plugins\"")
        return [TargetOutcome(name: "plugins: cost per added plugin", figure: String(format: "%.3f ms", perPlugin),
                              target: String(format: "<= %.2f ms", target), met: met)]
    }

    /// The warm-up's listing must name exactly the plugins configured, with no failure.
    private static func checkListing(_ captured: Captured, names: [String], _ command: Command) throws {
        let lines = captured.lines
        let failed = lines.filter { $0.hasPrefix("failed:") }
        let listed = lines.compactMap { $0.split(separator: " ").first.map(String.init) }.filter { $0.hasPrefix("gen") }
        let good = names.isEmpty ? lines == ["(no plugin loaded)"] : failed.isEmpty && listed == names
        guard good else {
            throw Timing.failure("the warm-up run of this command did not list the \(names.count) generated providers (it listed \(listed.count), \(failed.count) failed)", command, captured)
        }
    }
}
