import ChildProcesses
import Foundation
import Glibc
import Synchronization

/// A Python script serving on 127.0.0.1 for a test: Python's `websockets` (a real
/// server, not ours) or a raw socket. The script prints `PORT <n>` and what the tests
/// check on stderr, kept in a file. Killed (with its process group) by ``stop()``, and by
/// the watchdog at 120 s.
public final class PythonFixtureServer: Sendable {
    /// Why the tests skip, or `nil` when Python and `websockets` are installed.
    public static let missingReason: String? = {
        let probe = try? ChildProcess("/usr/bin/env", ["python3", "-c", "import websockets"], standardOutput: .discard, standardError: .discard)
            .run(timeout: .seconds(20))
        if let probe, case .exited(0) = probe.ending { return nil }
        return "python3 with the websockets package is not installed (pip install websockets); skipped"
    }()

    /// True when the fixture can run; otherwise prints why `test` skips. The first call runs a
    /// Python probe: off Swift Testing's 2-thread pool, so that callers waiting on its one-time
    /// initialization never hold both pool threads while it runs.
    public static func available(for test: String) async -> Bool {
        let reason: String?
        do {
            reason = try await offThePool { Self.missingReason }
        } catch {
            reason = "the probe for python3 and websockets could not run (\(error)); skipped"
        }
        guard let reason else { return true }
        print("\(test): \(reason)")
        return false
    }

    /// The port it listens on.
    public let port: Int
    private let script: String
    private let child: RunningChild
    private let directory: TemporaryDirectory
    private let stopped = Atomic<Bool>(false)
    private var logPath: String { directory.file("server.stderr") }

    /// Starts `script` with `arguments` and waits, off the cooperative pool, until it listens.
    public static func start(script: String, _ arguments: [String]) async throws -> PythonFixtureServer {
        try await offThePool { try PythonFixtureServer(script: script, arguments) }
    }

    private init(script: String, _ arguments: [String]) throws {
        self.script = script
        directory = try TemporaryDirectory(prefix: "pricehost-fixture")
        child = try ChildProcess("/usr/bin/env", ["python3", script] + arguments, standardOutput: .discard,
                                 standardError: .file(directory.file("server.stderr")), ownProcessGroup: true)
            .start(timeout: .seconds(120))
        ChildGuardian.watch(child.pid, group: true)
        var found: Int?
        // Bounded: 15 s in steps of 10 ms.
        for _ in 0..<1_500 {
            if let line = Self.lines(in: directory.file("server.stderr")).first(where: { $0.hasPrefix("PORT ") }) {
                found = Int(line.dropFirst(5))
                break
            }
            usleep(10_000)
        }
        guard let found else {
            let log = Self.lines(in: directory.file("server.stderr")).joined(separator: "\n")
            kill(-child.pid, SIGKILL)
            ChildGuardian.forget(child.pid, group: true)
            _ = child.wait()
            directory.remove()
            throw FixtureError("\(script) \(arguments) did not print its port within 15 s:\n\(log)")
        }
        port = found
    }

    /// `ws://127.0.0.1:PORT/` (or `wss://`).
    public func url(secure: Bool = false, path: String = "/") -> String { "\(secure ? "wss" : "ws")://127.0.0.1:\(port)\(path)" }

    /// Waits (at most `seconds`, off the pool) for a line of the server's log starting with `prefix`.
    public func line(startingWith prefix: String, within seconds: Double = 10) async throws -> String? {
        let path = logPath
        return try await offThePool {
            for _ in 0..<Int(seconds * 100) {
                if let line = Self.lines(in: path).first(where: { $0.hasPrefix(prefix) }) { return line }
                usleep(10_000)
            }
            return nil
        }
    }

    /// The server's log so far.
    public var log: String { Self.lines(in: logPath).joined(separator: "\n") }

    /// The lines of the log so far that start with `prefix`.
    public func lines(startingWith prefix: String) -> [String] {
        Self.lines(in: logPath).filter { $0.hasPrefix(prefix) }
    }

    /// Kills the server and what it started, reaps it, and removes its files.
    public func stop() {
        // Once: after the reaping, the group's number may be another's.
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        kill(-child.pid, SIGKILL)
        ChildGuardian.forget(child.pid, group: true)
        _ = child.wait()
        directory.remove()
    }

    private static func lines(in path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}

/// A fixture could not start.
public struct FixtureError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
