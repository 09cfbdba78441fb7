import Foundation
import Glibc

/// Debian's `redis-server` on a free port of 127.0.0.1, for tests of the fleet:
/// nothing saved to disk (`--save '' --appendonly no`), its files in a temporary
/// directory, stopped (SIGKILL) when released. Tests skip, saying why, when it is
/// not installed (`apt-get install -y redis-server`; `.ci/run` tries).
public final class RedisServer {
    /// The port it listens on.
    public let port: UInt16
    /// `redis://127.0.0.1:PORT/0`.
    public var url: String { "redis://127.0.0.1:\(port)/0" }

    private var process: BackgroundProcess
    private let directory: TemporaryDirectory
    private let extraArguments: [String]

    /// Where `redis-server` and `redis-cli` are, or `nil` when Redis is not installed.
    public static var installed: (server: String, cli: String)? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        func find(_ name: String) -> String? {
            (path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/sbin"])
                .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        }
        guard let server = find("redis-server"), let cli = find("redis-cli") else { return nil }
        return (server, cli)
    }

    /// Why tests of the fleet skip here.
    public static let missingReason = "redis-server or redis-cli is not installed (apt-get install -y redis-server); skipped"

    /// Starts Redis and waits (at most 10 s) until it answers PING.
    /// - Parameter arguments: more `redis-server` options, e.g. `["--requirepass", "secret"]`.
    public init(arguments: [String] = []) throws {
        guard let installed = Self.installed else { throw ServerError(Self.missingReason) }
        directory = try TemporaryDirectory(prefix: "pricehost-redis")
        extraArguments = arguments
        var started: (BackgroundProcess, UInt16)?
        // A port found free may be taken before Redis binds it: try a few.
        for _ in 0..<5 {
            let port = try Self.freePort()
            let log = directory.file("redis-\(port).log")
            let process = try BackgroundProcess(installed.server, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                                                                    "--dir", directory.path, "--logfile", log] + arguments,
                                                currentDirectory: directory.path)
            // Bounded: 10 s in steps of 10 ms.
            for _ in 0..<1000 {
                if ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("Ready to accept connections") {
                    started = (process, port)
                    break
                }
                usleep(10_000)
            }
            if started != nil { break }
            process.terminate(signal: SIGKILL, within: 5)
        }
        guard let (process, port) = started else { throw ServerError("redis-server did not start on a free port of 127.0.0.1") }
        self.process = process
        self.port = port
    }

    deinit {
        stop()
        directory.remove()
    }

    /// Starts Redis again on the same port, empty (after ``stop()``), and waits (at most 10 s) until it is ready.
    public func restart() throws {
        guard let installed = Self.installed else { throw ServerError(Self.missingReason) }
        let log = directory.file("redis-\(port)-again.log")
        process = try BackgroundProcess(installed.server, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                                                           "--dir", directory.path, "--logfile", log] + extraArguments,
                                        currentDirectory: directory.path)
        // Bounded: 10 s in steps of 10 ms.
        for _ in 0..<1000 {
            if ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("Ready to accept connections") { return }
            usleep(10_000)
        }
        throw ServerError("redis-server did not start again on port \(port)")
    }

    /// Kills Redis at once (SIGKILL), as a crash would.
    public func stop() { process.terminate(signal: SIGKILL, within: 5) }

    /// Stops Redis without ending it (SIGSTOP): connections stay open and nothing answers, as with a Redis that hangs.
    public func pause() { process.send(SIGSTOP) }

    /// Lets a paused Redis go on (SIGCONT).
    public func resume() { process.send(SIGCONT) }

    /// Runs `redis-cli -p PORT ARGUMENTS` and returns its output, trimmed.
    @discardableResult
    public func cli(_ arguments: [String]) throws -> String {
        guard let installed = Self.installed else { throw ServerError(Self.missingReason) }
        let result = try CommandRunner.run(installed.cli, ["-h", "127.0.0.1", "-p", String(port)] + arguments, timeout: 10)
        guard result.status == 0 else { throw ServerError("redis-cli \(arguments) failed: \(result)") }
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A port of 127.0.0.1 that nothing listens on now.
    public static func freePort() throws -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ServerError("socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard bound == 0 else { throw ServerError("bind: \(String(cString: strerror(errno)))") }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Redis could not be started or asked.
    public struct ServerError: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }
}
