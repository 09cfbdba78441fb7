import ChildProcesses
import Glibc

/// What a finished process left behind.
public struct CommandResult: Sendable, Equatable, CustomStringConvertible {
    /// The exit status, or 128 + the signal number when it was killed.
    public var status: Int32
    /// Everything written to stdout.
    public var standardOutput: String
    /// Everything written to stderr.
    public var standardError: String

    /// Creates a result, as a test's expectation.
    public init(status: Int32, standardOutput: String, standardError: String) {
        self.status = status
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// stdout's lines, without the final empty one.
    public var outputLines: [String] { Self.lines(standardOutput) }
    /// stderr's lines, without the final empty one.
    public var errorLines: [String] { Self.lines(standardError) }

    public var description: String {
        "status \(status)\n--- stdout\n\(standardOutput)--- stderr\n\(standardError)"
    }

    static func lines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}

/// A process that did not finish in time; it has been killed.
public struct CommandTimeout: Error, CustomStringConvertible {
    public var command: String
    public var seconds: Double
    public var description: String { "\(command) did not finish within \(seconds) s; killed" }
}

/// Runs programs as a user would, capturing stdout, stderr and the status.
public enum CommandRunner {
    /// Runs `executable` with `arguments` and waits at most `timeout` seconds.
    ///
    /// The environment is a clean one (PATH, and HOME pointing at
    /// `currentDirectory` or /tmp) plus `environment`, so the developer's own
    /// config and variables never leak into a test.
    /// - Parameter ownProcessGroup: start it in a process group of its own, so that what it
    ///   starts (a browser, say) is killed with it when it ends or runs out of time.
    /// - Throws: ``CommandTimeout`` when it ran out of time (it has been killed),
    ///   or the runner's error when it could not start.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                           currentDirectory: String? = nil, timeout: Double = 60, ownProcessGroup: Bool = false) throws -> CommandResult {
        var base = inheritedEnvironment
        base["HOME"] = currentDirectory ?? "/tmp"
        let entries = base.merging(environment) { _, new in new }.map { "\($0.key)=\($0.value)" }
        let child = ChildProcess(executable, arguments, environment: entries, currentDirectory: currentDirectory, ownProcessGroup: ownProcessGroup)
        let running = try child.start(timeout: .milliseconds(Int(timeout * 1000)))
        // Killed with its group, if it has one, should the test process end first.
        ChildGuardian.watch(running.pid, group: ownProcessGroup)
        let outcome = running.wait()
        ChildGuardian.forget(running.pid, group: ownProcessGroup)
        if outcome.ending == .timedOut {
            throw CommandTimeout(command: child.description, seconds: timeout)
        }
        return CommandResult(status: outcome.shellStatus, standardOutput: outcome.standardOutput, standardError: outcome.standardError)
    }

    /// What every child of a test inherits from the test process: PATH; a sanitizer's options,
    /// so a sanitizer run configures the children the same way; and the descriptor checker's
    /// preload and settings (scripts/fdcheck/run), so the `pricehost` a test starts is checked too.
    public static var inheritedEnvironment: [String: String] {
        var inherited = ["PATH": variable("PATH") ?? "/usr/bin:/bin"]
        for name in ["ASAN_OPTIONS", "TSAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS", "LD_PRELOAD", "FDCHECK_LOG", "FDCHECK_PROGRAMS"] {
            inherited[name] = variable(name)
        }
        return inherited
    }

    /// `name` as found on PATH (an executable file), or nil when it is not installed.
    public static func installed(_ name: String) -> String? {
        for directory in (variable("PATH") ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    private static func variable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
