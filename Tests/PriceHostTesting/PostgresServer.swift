import Foundation
import Glibc

/// Debian's PostgreSQL server (`apt-get install -y postgresql`) in a throwaway cluster, for the quote store's tests:
/// `initdb` in a directory of its own under /tmp, the server on a free port of 127.0.0.1 with its socket in that
/// directory (`-k`), fsync off. The superuser `postgres` logs in over the socket without a password; the role
/// `pricehost` (password ``password``) logs in over TCP, owns the databases ``makeDatabase()`` makes, and so may
/// create in their `public` schema (PostgreSQL 15 lets only the owner).
///
/// initdb and postgres refuse to run as root: as root they run as the `postgres` user (`runuser`, and `setpriv`
/// for the server so that it is this process's own child, which ``ChildGuardian`` kills if the tests die). The
/// server is stopped (fast shutdown) and its directory removed by ``stop()`` and when released; ``shared``, one
/// server for a whole suite, at the end of the test process. Tests skip, saying why, when it is not installed.
public final class PostgresServer: @unchecked Sendable {
    // @unchecked: `process` is changed only by stop() and start(), which a test calls from one thread.

    /// The port it listens on.
    public let port: UInt16
    /// The directory holding the cluster (`data`), the socket and the log.
    public let directory: String
    /// The password of the role `pricehost`.
    public let password = "store-test-Pa55word"
    private let binaries: Binaries
    private var process: BackgroundProcess?

    /// Where the server's programs are.
    public struct Binaries: Sendable {
        public var initdb: String
        public var postgres: String
        public var psql: String
    }

    /// Where `initdb`, `postgres` and `psql` are (the newest /usr/lib/postgresql/N/bin first, then PATH), or `nil`.
    public static var installed: Binaries? {
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .compactMap(Int.init).sorted(by: >).map { "/usr/lib/postgresql/\($0)/bin" }
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        func find(_ name: String) -> String? {
            (versions + path + ["/usr/bin"]).map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        }
        guard let initdb = find("initdb"), let postgres = find("postgres"), let psql = find("psql") else { return nil }
        return Binaries(initdb: initdb, postgres: postgres, psql: psql)
    }

    /// Why the PostgreSQL tests skip here.
    public static let missingReason = "PostgreSQL's server is not installed (initdb and postgres: apt-get install -y postgresql); skipped"

    /// One server for every test of the process that asks, started on first use; or why there is none.
    public static let shared: Result<PostgresServer, ServerError> = {
        do {
            let server = try PostgresServer()
            sharedToStop = server
            atexit { PostgresServer.sharedToStop?.stopAndRemove() }
            return .success(server)
        } catch let error as ServerError {
            return .failure(error)
        } catch {
            return .failure(ServerError("\(error)"))
        }
    }()
    nonisolated(unsafe) private static var sharedToStop: PostgresServer?

    /// Makes a cluster and starts the server, waiting (at most 30 s) until it accepts connections.
    public init() throws {
        guard let binaries = Self.installed else { throw ServerError(Self.missingReason) }
        self.binaries = binaries
        // Under /tmp itself, not TMPDIR: the postgres user must reach it, and a root-only TMPDIR would stop it.
        var template = Array("/tmp/pricehost-pg-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw ServerError("mkdtemp: \(String(cString: strerror(errno)))") }
        directory = String(cString: made)
        chmod(directory, 0o755)
        port = try RedisServer.freePort()
        if getuid() == 0 {
            guard let user = getpwnam("postgres") else {
                stopAndRemove()
                throw ServerError("there is no postgres user to run initdb and postgres as (they refuse to run as root); skipped")
            }
            chown(directory, user.pointee.pw_uid, user.pointee.pw_gid)
        }
        do {
            try FileManager.default.createDirectory(atPath: directory + "/home", withIntermediateDirectories: false)
            let command = runAs + [binaries.initdb, "-D", directory + "/data", "-U", "postgres", "--no-locale", "-E", "UTF8",
                                   "--auth-local=trust", "--auth-host=scram-sha-256", "--no-sync"]
            let initdb = try CommandRunner.run(command[0], Array(command.dropFirst()), currentDirectory: directory + "/home", timeout: 120)
            guard initdb.status == 0 else { throw ServerError("initdb failed: \(initdb)") }
            try start()
            try psql("CREATE ROLE pricehost LOGIN PASSWORD '\(password)'")
        } catch {
            stopAndRemove()
            throw error
        }
    }

    deinit { stopAndRemove() }

    /// `runuser -u postgres --` as root; nothing otherwise.
    private var runAs: [String] { getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : [] }

    /// `postgres://pricehost:PASSWORD@127.0.0.1:PORT/DATABASE`, with another password when given.
    public func url(database: String, password: String? = nil) -> String {
        "postgres://pricehost:\(password ?? self.password)@127.0.0.1:\(port)/\(database)"
    }

    /// A new database owned by `pricehost`; its name.
    public func makeDatabase() throws -> String {
        let name = "store_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try psql("CREATE DATABASE \(name) OWNER pricehost")
        return name
    }

    /// Runs `sql` as the superuser over the socket (`psql -At`) and returns its output, trimmed.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        let result = try CommandRunner.run(binaries.psql, ["-h", directory, "-p", String(port), "-U", "postgres", "-d", database,
                                                           "-v", "ON_ERROR_STOP=1", "-At", "-c", sql], timeout: 60)
        guard result.status == 0 else { throw ServerError("psql \(sql) failed: \(result)") }
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Starts the server (again, after ``stop()``) on the same port and waits (at most 30 s) until it accepts connections.
    public func start() throws {
        let server = [binaries.postgres, "-D", directory + "/data", "-p", String(port), "-k", directory,
                      "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "log_destination=stderr"]
        // setpriv, not runuser: it execs, so the server is this process's child, and the guardian can kill it.
        let command = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups"] + server : server
        let started = try BackgroundProcess(command[0], Array(command.dropFirst()), environment: ["HOME": directory + "/home"],
                                            currentDirectory: directory + "/home")
        process = started
        // Bounded: 30 s in steps of 50 ms.
        for _ in 0..<600 {
            if started.standardError.contains("ready to accept connections") { return }
            guard started.isRunning else { break }
            usleep(50_000)
        }
        throw ServerError("postgres did not start on port \(port): \(started.standardError)")
    }

    /// Stops the server (fast shutdown: connections are closed at once), waiting at most 30 s.
    public func stop() {
        process?.terminate(signal: SIGINT, within: 30)
        process = nil
    }

    /// Stops the server and removes its directory.
    public func stopAndRemove() {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// PostgreSQL could not be started or asked.
    public struct ServerError: Error, CustomStringConvertible, Sendable {
        public var description: String
        public init(_ description: String) { self.description = description }
    }
}
