/// What a warm-up run wrote.
struct Captured: Sendable {
    let standardOutput: String
    let standardError: String

    /// stdout's lines, without the empty one after the last newline.
    var lines: [String] {
        standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }
}

/// A command to time, with the name the report gives it.
struct TimedCommand: Sendable {
    let label: String
    let command: Command
}

/// One command's timed runs.
struct Timings: Sendable {
    let label: String
    let milliseconds: Samples
    let maxResidentKilobytes: Samples
}

/// Warm-up runs and interleaved timed runs of whole processes.
enum Timing {
    /// No single timed run here should come near this; one that does is broken.
    static let timeoutSeconds = 60.0

    /// Runs `command` once, untimed, capturing its output: it warms the page cache,
    /// and proves the command works, since timing a failing command means nothing.
    /// - Throws: ``BenchmarkError`` with the command and its stderr unless it exits 0.
    static func warmUp(_ command: Command, scratch: ScratchDirectory, timeoutSeconds: Double = 120) throws -> Captured {
        let outputPath = scratch.uniquePath("warm-up", suffix: "out")
        let errorPath = scratch.uniquePath("warm-up", suffix: "err")
        let result = try Children.run(command, standardOutput: .file(outputPath), standardError: .file(errorPath),
                                          timeoutSeconds: timeoutSeconds)
        let captured = Captured(standardOutput: ScratchDirectory.contents(of: outputPath),
                                standardError: ScratchDirectory.contents(of: errorPath))
        guard result.succeeded else {
            throw failure("the warm-up run of this command \(result.endingDescription)", command, captured)
        }
        return captured
    }

    /// A failure of `command` that shows what it wrote: stderr's last lines, or stdout's when stderr is empty.
    static func failure(_ what: String, _ command: Command, _ captured: Captured) -> BenchmarkError {
        let (name, text) = captured.standardError.isEmpty ? ("stdout", captured.standardOutput) : ("stderr", captured.standardError)
        let lines = text.split(separator: "\n").suffix(20).map { "  | " + $0 }
        let shown = lines.isEmpty ? "  (it wrote nothing to stdout or stderr)" : "its \(name)\(lines.count == 20 ? " (last 20 lines)" : ""):\n" + lines.joined(separator: "\n")
        return BenchmarkError("\(what):\n  \(command)\n\(shown)")
    }

    /// Times every command `runs` times, interleaved so that drift and bursts of
    /// load from elsewhere fall on all of them alike: one round runs each once, and
    /// every other round runs them in reverse order, so none always follows another.
    /// Output goes to /dev/null. Call ``warmUp(_:scratch:timeoutSeconds:)`` on each first.
    /// - Throws: ``BenchmarkError`` when a run fails.
    static func interleaved(_ commands: [TimedCommand], runs: Int) throws -> [Timings] {
        var milliseconds = [[Double]](repeating: [], count: commands.count)
        var kilobytes = [[Double]](repeating: [], count: commands.count)
        for round in 0..<runs {
            let order = round % 2 == 0 ? Array(commands.indices) : commands.indices.reversed()
            for index in order {
                let command = commands[index].command
                let result = try Children.run(command, timeoutSeconds: timeoutSeconds)
                guard result.succeeded else {
                    throw BenchmarkError("timed run \(round + 1) of this command \(result.endingDescription), though its warm-up had worked:\n  \(command)")
                }
                milliseconds[index].append(result.milliseconds)
                kilobytes[index].append(Double(result.maxResidentKilobytes))
            }
        }
        return commands.indices.map { index in
            Timings(label: commands[index].label, milliseconds: Samples(milliseconds[index]),
                    maxResidentKilobytes: Samples(kilobytes[index]))
        }
    }
}
