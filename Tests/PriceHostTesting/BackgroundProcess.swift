import ChildProcesses
import Foundation
import Glibc

/// A program left running while a test talks to it (a server), its stdout and stderr
/// kept in files the test can read at any time. Stop it with ``terminate(signal:within:)``;
/// it is killed when released, and by ``ChildGuardian`` if the test process ends first
/// (even by SIGKILL), so no run leaves a server behind.
public final class BackgroundProcess {
    private let child: RunningChild
    private let errorPath: String
    private let outputPath: String
    /// Set once reaped: its pid is then no longer its own, to signal or to take off the guardian's list.
    private var reaped: ChildProcess.Outcome?

    /// No server of a test runs longer than this: the watchdog then kills it.
    static let longestRun: Duration = .seconds(1_800)

    /// Starts `executable` with a clean environment plus `environment` (as ``CommandRunner`` does).
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], currentDirectory: String) throws {
        var base = CommandRunner.inheritedEnvironment
        base["HOME"] = currentDirectory
        base.merge(environment) { _, new in new }
        let name = "background-\(UUID().uuidString)"
        errorPath = currentDirectory + "/\(name).stderr"
        outputPath = currentDirectory + "/\(name).stdout"
        child = try ChildProcess(executable, arguments, environment: base.map { "\($0.key)=\($0.value)" }, currentDirectory: currentDirectory,
                                 standardOutput: .file(outputPath), standardError: .file(errorPath))
            .start(timeout: Self.longestRun)
        ChildGuardian.watch(child.pid)
    }

    deinit {
        if isRunning { kill(child.pid, SIGKILL) }
        reap()
    }

    /// The process id.
    public var pid: Int32 { child.pid }

    /// Whether it still runs.
    public var isRunning: Bool { reaped == nil && !child.hasExited }

    /// Everything written to stderr so far.
    public var standardError: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// Everything written to stdout so far.
    public var standardOutput: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    /// stdout's complete lines so far.
    public var outputLines: [String] {
        let text = standardOutput
        let complete = text.hasSuffix("\n") ? text : String(text[..<(text.lastIndex(of: "\n") ?? text.startIndex)])
        return complete.split(separator: "\n").map(String.init)
    }

    /// Waits (at most `seconds`) until `done` holds for stdout's lines; false if it never did.
    public func waitForOutput(within seconds: Double = 30, until done: ([String]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if done(outputLines) { return true }
            guard isRunning else { return done(outputLines) }
            usleep(10_000)
        }
        return false
    }

    /// stderr's lines so far.
    public var errorLines: [String] { standardError.split(separator: "\n").map(String.init) }

    /// Waits (at most `seconds`) for a line of stderr containing `text`, and returns it; `nil` if none came or the process ended.
    public func waitForErrorLine(containing text: String, within seconds: Double = 30) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let line = errorLines.first(where: { $0.contains(text) }) { return line }
            guard isRunning else { return errorLines.first { $0.contains(text) } }
            usleep(10_000)
        }
        return nil
    }

    /// Sends `signal` (while it runs: once reaped, its pid may be another process's).
    public func send(_ signal: Int32) {
        if isRunning { kill(child.pid, signal) }
    }

    /// Sends `signal` and waits at most `seconds`; the exit status (128 + a signal), or `nil` if it did not end (it is then killed).
    @discardableResult
    public func terminate(signal: Int32 = SIGTERM, within seconds: Double = 10) -> Int32? {
        send(signal)
        return waitForExit(within: seconds)
    }

    /// Waits at most `seconds` for the process to end; its status, or `nil` (it is then killed).
    public func waitForExit(within seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning, Date() < deadline { usleep(10_000) }
        guard !isRunning else {
            kill(child.pid, SIGKILL)
            reap()
            return nil
        }
        return reap().shellStatus
    }

    /// Takes it off the guardian's list and reaps it (at once when it has exited or was killed), once.
    @discardableResult
    private func reap() -> ChildProcess.Outcome {
        if let reaped { return reaped }
        // Off the list first: an unreaped pid is still this child's, a reaped one may soon be another's.
        ChildGuardian.forget(child.pid)
        let outcome = child.wait()
        reaped = outcome
        return outcome
    }
}
