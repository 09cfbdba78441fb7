import Foundation

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
    /// The environment is a clean one (PATH and HOME pointing at `home`, when
    /// given) plus `environment`, so the developer's own config and
    /// variables never leak into a test.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                           currentDirectory: String? = nil, timeout: Double = 60) throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var base = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        // A sanitizer run configures the children the same way.
        for name in ["ASAN_OPTIONS", "TSAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS"] {
            base[name] = ProcessInfo.processInfo.environment[name]
        }
        base["HOME"] = currentDirectory ?? NSTemporaryDirectory()
        process.environment = base.merging(environment) { _, new in new }
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes concurrently so a chatty child never blocks on a full pipe.
        let outputData = PipeReader(output.fileHandleForReading)
        let errorData = PipeReader(error.fileHandleForReading)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                process.waitUntilExit()
                throw CommandTimeout(command: ([executable] + arguments).joined(separator: " "), seconds: timeout)
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
        process.waitUntilExit()
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return CommandResult(status: status, standardOutput: outputData.text(), standardError: errorData.text())
    }
}

/// Drains a pipe on a background thread.
final class PipeReader: @unchecked Sendable {
    // @unchecked: `data` is written only by the reading thread before `done` is
    // signalled and read only after waiting on it.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func text() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}
