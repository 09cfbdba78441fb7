import ChildProcesses
import Glibc

/// One program to run: an absolute path and its arguments (no shell in between).
/// It is the package's runner, `ChildProcesses.ChildProcess`; the benchmark gives
/// every child the ``ChildEnvironment`` and sends its output to /dev/null or a file.
typealias Command = ChildProcesses.ChildProcess

/// Where a child's stdout or stderr goes.
enum OutputTarget: Sendable {
    /// /dev/null: timed runs write nothing anywhere that could slow them down.
    case discard
    /// A file, created or truncated.
    case file(String)

    var output: Command.Output {
        switch self {
        case .discard: .discard
        case .file(let path): .file(path)
        }
    }
}

/// How a child ended, and what it cost.
struct ChildResult: Sendable {
    let outcome: Command.Outcome
    let timeoutSeconds: Double

    var succeeded: Bool { outcome.ending == .exited(0) }
    var milliseconds: Double { Double(outcome.elapsedNanoseconds) / 1_000_000 }
    var maxResidentKilobytes: Int { outcome.maxResidentKilobytes }
    var elapsedNanoseconds: UInt64 { outcome.elapsedNanoseconds }

    var endingDescription: String {
        switch outcome.ending {
        case .exited(let status): "exited with status \(status)"
        case .signalled(let signal): "was killed by signal \(signal)"
        case .timedOut: "did not finish within \(Int(timeoutSeconds)) s and was killed"
        case .leftProcessesRunning(let status): "exited with status \(status) but left processes holding its output"
        }
    }
}

/// A child that has been started and not yet waited for.
struct StartedChild: Sendable {
    let child: RunningChild
    let command: Command
    let timeoutSeconds: Double

    var pid: pid_t { child.pid }

    /// Blocks until the child exits (at the latest when it is killed at its deadline), then reaps it.
    func waitForExit() -> ChildResult {
        ChildResult(outcome: child.wait(), timeoutSeconds: timeoutSeconds)
    }
}

/// Runs the benchmark's children: stdin from /dev/null, stdout and stderr where
/// asked, the ``ChildEnvironment``, and default signal dispositions.
enum Children {
    /// Starts `command`, and runs it to the end.
    static func run(_ command: Command, standardOutput: OutputTarget = .discard, standardError: OutputTarget = .discard,
                    timeoutSeconds: Double) throws -> ChildResult {
        try start(command, standardOutput: standardOutput, standardError: standardError, timeoutSeconds: timeoutSeconds).waitForExit()
    }

    /// Starts `command`; it is killed if it runs longer than `timeoutSeconds`.
    /// `extraEnvironment` (`NAME=value`) is added to the ``ChildEnvironment``, e.g. a `PRICEHOST_` setting it drops.
    static func start(_ command: Command, standardOutput: OutputTarget = .discard, standardError: OutputTarget = .discard,
                      timeoutSeconds: Double, extraEnvironment: [String] = []) throws -> StartedChild {
        var child = command
        child.environment = ChildEnvironment.entries + extraEnvironment
        child.standardOutput = standardOutput.output
        child.standardError = standardError.output
        do {
            let running = try child.start(timeout: .milliseconds(Int(timeoutSeconds * 1000)))
            return StartedChild(child: running, command: command, timeoutSeconds: timeoutSeconds)
        } catch {
            throw BenchmarkError(error.description)
        }
    }
}
