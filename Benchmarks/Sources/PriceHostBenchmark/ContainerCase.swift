import Foundation

/// Case 3: the container's resolution benchmark, run as it is and relayed:
/// `injection-benchmark` takes its own medians over interleaved rounds and
/// compares every case with a bare container in the same run.
enum ContainerCase {
    static let target = 1.5

    static func run(_ context: BenchmarkContext) throws -> [TargetOutcome] {
        let quick = context.options.quick
        let command = Command(context.locations.injectionBenchmark, quick ? ["--quick"] : [])
        Report.progress("container: running \(command) (\(quick ? "some seconds" : "a minute or two"))")
        let outputPath = context.scratch.uniquePath("injection-benchmark", suffix: "out")
        let errorPath = context.scratch.uniquePath("injection-benchmark", suffix: "err")
        let result = try Children.run(command, standardOutput: .file(outputPath), standardError: .file(errorPath),
                                          timeoutSeconds: 1800)
        let captured = Captured(standardOutput: ScratchDirectory.contents(of: outputPath),
                                standardError: ScratchDirectory.contents(of: errorPath))
        guard result.succeeded else {
            throw Timing.failure("injection-benchmark \(result.endingDescription)", command, captured)
        }

        Report.section("container: resolving through the container vs a bare one (injection-benchmark\(quick ? " --quick" : ""), relayed)")
        var lines = captured.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        for line in lines {
            Report.note(line.isEmpty ? "|" : "| " + line)
        }
        guard let worst = worstRatio(in: captured.standardOutput) else {
            Report.note("(could not read the ratios from its output; see above)")
            return [TargetOutcome(name: "container: worst case vs like-for-like", figure: "unreadable",
                                  target: "<= " + Report.ratio(target), met: nil)]
        }
        let met = worst.ratio <= target
        Report.note("worst case against its like-for-like baseline: \(worst.name) at \(Report.ratio(worst.ratio)); target <= \(Report.ratio(target)): \(met ? "met" : "MISSED")")
        return [TargetOutcome(name: "container: worst case vs like-for-like", figure: Report.ratio(worst.ratio),
                              target: "<= " + Report.ratio(target), met: met)]
    }

    /// The largest "vs like-for-like" ratio (the last column of the table that
    /// follows the line starting "case") and the name of its case.
    static func worstRatio(in output: String) -> (name: String, ratio: Double)? {
        var inTable = false
        var worst: (name: String, ratio: Double)?
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("case ") {
                inTable = true
                continue
            }
            guard inTable else { continue }
            guard let last = line.split(separator: " ").last, last.hasSuffix("x"), let ratio = Double(last.dropLast()) else {
                if line.trimmingCharacters(in: .whitespaces).isEmpty { break }
                continue
            }
            // The case's name is everything before the first run of two spaces.
            let name = line.split(separator: "  ").first.map { String($0).trimmingCharacters(in: .whitespaces) } ?? String(line)
            if ratio > worst?.ratio ?? -1 { worst = (name, ratio) }
        }
        return worst
    }
}
