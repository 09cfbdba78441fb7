import ChildProcesses
import Foundation
import Glibc
import PriceHostTesting

/// `Fixtures/websocket_server.py` running in one of its modes on 127.0.0.1: Python's
/// `websockets` (a real server, not ours) or, for the two frames it will not send, a
/// raw socket. It prints the port it bound and what the tests check on stderr, kept
/// in a file. Killed (with its process group) by ``stop()``, and by the watchdog at 60 s.
final class WebSocketFixtureServer: Sendable {
    static let script = BuiltProducts.packageRoot + "/Tests/PriceHostHTTPTests/Fixtures/websocket_server.py"

    /// Why the tests skip here, or `nil` when Python and `websockets` are installed.
    static let missingReason: String? = {
        let probe = try? ChildProcess("/usr/bin/env", ["python3", "-c", "import websockets"], standardOutput: .discard, standardError: .discard)
            .run(timeout: .seconds(20))
        if let probe, case .exited(0) = probe.ending { return nil }
        return "python3 with the websockets package is not installed (pip install websockets); skipped"
    }()

    /// True when the fixture can run; otherwise prints why `test` skips.
    static func available(for test: String) -> Bool {
        guard let missingReason else { return true }
        print("WebSocketConnectionTests.\(test): \(missingReason)")
        return false
    }

    let port: Int
    private let child: RunningChild
    private let directory: TemporaryDirectory
    private var logPath: String { directory.file("server.stderr") }

    /// Starts the script with `arguments` (the mode first) and waits, off the cooperative pool, until it listens.
    static func start(_ arguments: [String]) async throws -> WebSocketFixtureServer {
        try await offThePool { try WebSocketFixtureServer(arguments) }
    }

    private init(_ arguments: [String]) throws {
        directory = try TemporaryDirectory(prefix: "pricehost-websocket")
        child = try ChildProcess("/usr/bin/env", ["python3", Self.script] + arguments, standardOutput: .discard,
                                 standardError: .file(directory.file("server.stderr")), ownProcessGroup: true)
            .start(timeout: .seconds(60))
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
            _ = child.wait()
            directory.remove()
            throw FixtureError("\(Self.script) \(arguments) did not print its port within 15 s:\n\(log)")
        }
        port = found
    }

    /// `ws://127.0.0.1:PORT/` (or `wss://`).
    func url(secure: Bool = false, path: String = "/") -> String { "\(secure ? "wss" : "ws")://127.0.0.1:\(port)\(path)" }

    /// Waits (at most `seconds`, off the pool) for a line of the server's log starting with `prefix`.
    func line(startingWith prefix: String, within seconds: Double = 10) async throws -> String? {
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
    var log: String { Self.lines(in: logPath).joined(separator: "\n") }

    /// Kills the server and what it started, reaps it, and removes its files.
    func stop() {
        kill(-child.pid, SIGKILL)
        _ = child.wait()
        directory.remove()
    }

    private static func lines(in path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}

/// The fixture could not start.
struct FixtureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
