import Foundation
import Glibc
import Synchronization

/// Runs a program to completion with a deadline, capturing its output; used
/// by `check` to exercise each plugin in a process of its own.
struct ChildProcess {
    /// How a child ended.
    enum Ending: Equatable {
        case exited(Int32)
        case signalled(Int32)
        case timedOut
        /// It exited, but something it started kept its output open past the deadline; killed.
        case leftProcessesRunning(Int32)
    }

    struct Outcome {
        var ending: Ending
        var standardOutput: String
        var standardError: String
    }

    /// Runs `executable` with `arguments`; kills it (SIGKILL) after `timeout`.
    ///
    /// The child is expected to put itself in a process group of its own
    /// (`setpgid(0, 0)`), so that whatever it starts is killed with it: when it
    /// ends, at the deadline, and anything still holding its pipes afterwards.
    /// - Throws: when the program cannot be started.
    static func run(_ executable: String, _ arguments: [String], timeout: Duration) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        let outputText = PipeDrain(output.fileHandleForReading)
        let errorText = PipeDrain(error.fileHandleForReading)
        let (seconds, attoseconds) = timeout.components
        let deadline = DispatchTime.now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        let pid = process.processIdentifier
        var ending: Ending
        if finished.wait(timeout: deadline) == .timedOut {
            let wasRunning = process.isRunning
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            _ = finished.wait(timeout: .now() + 5)
            ending = wasRunning ? .timedOut : .leftProcessesRunning(process.terminationStatus)
        } else {
            ending = process.terminationReason == .uncaughtSignal ? .signalled(process.terminationStatus) : .exited(process.terminationStatus)
        }
        // Anything the child started and left behind goes with it.
        kill(-pid, SIGKILL)
        let stdout = outputText.text(waitingAtMost: deadline + 5)
        let stderr = errorText.text(waitingAtMost: deadline + 5)
        if stdout.incomplete || stderr.incomplete, case .exited(let status) = ending {
            ending = .leftProcessesRunning(status)
        }
        return Outcome(ending: ending, standardOutput: stdout.text, standardError: stderr.text)
    }

    /// `SIGSEGV (segmentation fault)` for 11, and so on.
    static func describe(signal: Int32) -> String {
        switch signal {
        case SIGSEGV: "SIGSEGV (segmentation fault)"
        case SIGABRT: "SIGABRT (abort)"
        case SIGBUS: "SIGBUS (bus error)"
        case SIGILL: "SIGILL (illegal instruction, e.g. a Swift trap)"
        case SIGFPE: "SIGFPE (arithmetic error)"
        case SIGKILL: "SIGKILL"
        case SIGTRAP: "SIGTRAP"
        default: "signal \(signal)"
        }
    }
}

/// Reads a pipe to its end on a thread of its own, at most 1 MiB kept.
private final class PipeDrain: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let data = LockedData()

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [data, done] in
            while let chunk = try? handle.read(upToCount: 65_536), !chunk.isEmpty {
                data.append(chunk, limit: 1 << 20)
            }
            done.signal()
        }
    }

    /// What was read; `incomplete` when the pipe was still open at `deadline`
    /// (a process that escaped the group holds it), in which case reading stops there.
    func text(waitingAtMost deadline: DispatchTime) -> (text: String, incomplete: Bool) {
        let incomplete = done.wait(timeout: max(deadline, .now() + 1)) == .timedOut
        return (String(decoding: data.value, as: UTF8.self), incomplete)
    }
}

private final class LockedData: Sendable {
    private let storage = Mutex<Data>(Data())
    var value: Data { storage.withLock { $0 } }
    func append(_ chunk: Data, limit: Int) {
        storage.withLock { if $0.count < limit { $0.append(chunk.prefix(limit - $0.count)) } }
    }
}
