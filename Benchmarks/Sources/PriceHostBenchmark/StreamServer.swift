import Glibc
import PriceHostTesting
import ProviderABI

/// One `pricehost serve --listen 127.0.0.1:0` (`PRICEHOST_LOG=warning`) streaming Coinbase's
/// feed from the stream cases' venue: coinbase `"stream": true`, `streamURL` at the venue and
/// `staleAfterSeconds` 600, so pauses between steps never trip the REST fallback. With a Redis
/// URL it is an instance of that fleet (`shared.redis`), which holds one feed for all instances.
/// Its quote store (issue 35) is off unless a run asks for one: the stream's figures are the
/// stream's, and a benchmark never writes to the user's own store (serve's default path).
final class StreamServer {
    /// The config's `store` section when a run names none.
    static let storeOff = #"{"enabled": false}"#

    let process: StartedChild
    let port: UInt16
    private let errors: String

    /// Starts the server and waits (at most 30 s) until it says where it serves.
    /// - Parameter store: the config's `store` section, JSON.
    init(_ context: BenchmarkContext, name: String, venue: String, maxConnections: Int, redis: String? = nil,
         store: String = StreamServer.storeOff) throws {
        let shared = redis.map { ",\n \"shared\": {\"redis\": \(JSONValue.quoted($0)), \"commandTimeoutSeconds\": 5}" } ?? ""
        let config = try context.scratch.write("""
            {"plugins": [\(JSONValue.quoted(context.locations.coinbasePlugin))],
             "providers": {"coinbase": {"baseURL": "http://127.0.0.1:9", "maxAttempts": 1, "timeoutSeconds": 5,
                                        "stream": true, "streamURL": \(JSONValue.quoted(venue)), "staleAfterSeconds": 600}},
             "defaults": {"provider": "coinbase"},
             "serve": {"maxConnections": \(maxConnections)},
             "store": \(store)\(shared)}
            """, to: "\(name).json")
        errors = context.scratch.uniquePath(name, suffix: "err")
        let command = Command(context.locations.pricehost, ["serve", "--listen", "127.0.0.1:0", "--config", config])
        // The access log off, as in the serve case: one write(2) per request.
        let started = try Children.start(command, standardError: .file(errors), timeoutSeconds: 3600, extraEnvironment: ["PRICEHOST_LOG=warning"])
        process = started
        do {
            port = try ServeCase.waitForPort(errors, command)
        } catch {
            Glibc.kill(started.pid, SIGKILL)
            _ = started.waitForExit()
            throw error
        }
    }

    /// The text of `/metrics`, or nil when the server did not answer 200.
    func metrics() -> String? {
        guard let reply = try? LoopbackHTTPConnection(port: port).get("/metrics"), reply.status == 200 else { return nil }
        return reply.body
    }

    /// The value of the first sample in `metrics` whose line starts with `prefix`
    /// (a name and `{`, or a name with its labels), when it is an integer.
    static func sample(_ prefix: String, in metrics: String) -> Int? {
        metrics.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { $0.split(separator: " ").last }.flatMap { Int($0) }
    }

    /// The feed's counters from `/metrics`: messages, reconnects and gaps (nil where this instance runs no feed of its own).
    func feedCounters() -> (messages: Int, reconnects: Int, gaps: Int)? {
        guard let metrics = metrics(), let messages = Self.sample("pricehost_stream_messages_total{", in: metrics),
              let reconnects = Self.sample("pricehost_stream_reconnects_total{", in: metrics),
              let gaps = Self.sample("pricehost_stream_gaps_total{", in: metrics) else { return nil }
        return (messages, reconnects, gaps)
    }

    /// The server's CPU time so far (user + system), seconds.
    var cpuSeconds: Double {
        let stat = ScratchDirectory.contents(of: "/proc/\(process.pid)/stat")
        // The fields after the command's closing parenthesis; utime and stime are the 14th and 15th of the line.
        guard let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// VmRSS of the server, KiB (`field` VmHWM: its peak so far).
    func residentKilobytes(_ field: String = "VmRSS") throws -> Double {
        let status = ScratchDirectory.contents(of: "/proc/\(process.pid)/status")
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
              let value = Double(line.split(separator: " ").dropFirst().first ?? "") else {
            throw BenchmarkError("stream: cannot read \(field) from /proc/\(process.pid)/status")
        }
        return value
    }

    /// The last 20 lines of its stderr, indented, for a failure's message.
    var standardErrorTail: String {
        ScratchDirectory.contents(of: errors).split(separator: "\n").suffix(20).map { "  | " + $0 }.joined(separator: "\n")
    }

    /// Stops it (SIGTERM) and waits for it to exit (killed at its deadline at the latest).
    func stop() {
        Glibc.kill(process.pid, SIGTERM)
        _ = process.waitForExit()
    }

    /// Kills it (SIGKILL) and waits for it, after a failed start.
    func kill() {
        Glibc.kill(process.pid, SIGKILL)
        _ = process.waitForExit()
    }
}
