import ChildProcesses
import Foundation
import Glibc

/// A program left running while a test talks to it (a server), its stderr kept
/// in a file the test can read at any time. Stop it with ``terminate(signal:within:)``;
/// it is killed when released.
///
/// It runs on the package's own runner (``ChildProcess``), not Foundation's `Process`:
/// on Linux, `Process` learns that a child ended from a socket the child inherits, and a
/// server another test started at the same moment can inherit that socket too; the end
/// then goes unnoticed until that server ends, and two tests' teardowns can wait on each
/// other for ever. ``ChildProcess`` gives a child nothing past stderr and reaps it itself.
public final class BackgroundProcess {
    /// The longest a background program may run: the runner's watchdog kills it then.
    public static let lifetime: Duration = .seconds(600)

    private let child: RunningChild
    private let errorPath: String
    private let outputPath: String

    /// Starts `executable` with a clean environment plus `environment` (as ``CommandRunner`` does).
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], currentDirectory: String) throws {
        var base = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": currentDirectory]
        base.merge(environment) { _, new in new }
        let name = "background-\(UUID().uuidString)"
        errorPath = currentDirectory + "/\(name).stderr"
        outputPath = currentDirectory + "/\(name).stdout"
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        child = try ChildProcess(executable, arguments, environment: base.map { "\($0.key)=\($0.value)" }, currentDirectory: currentDirectory,
                                 standardOutput: .file(outputPath), standardError: .file(errorPath))
            .start(timeout: Self.lifetime)
    }

    deinit {
        if !child.hasExited { kill(child.pid, SIGKILL) }
        _ = child.wait()
    }

    /// The process id.
    public var pid: Int32 { child.pid }

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
            guard !child.hasExited else { return done(outputLines) }
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
            guard !child.hasExited else { return errorLines.first { $0.contains(text) } }
            usleep(10_000)
        }
        return nil
    }

    /// Sends `signal` (while it runs: a pid reaped may be another process's).
    public func send(_ signal: Int32) {
        if !child.hasExited { kill(child.pid, signal) }
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
        // Bounded by the deadline, in steps of 10 ms.
        while !child.hasExited, Date() < deadline { usleep(10_000) }
        guard child.hasExited else {
            kill(child.pid, SIGKILL)
            _ = child.wait()
            return nil
        }
        return child.wait().shellStatus
    }
}
