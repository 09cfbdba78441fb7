import Foundation
import Glibc
import PriceHostTesting
import ProviderABI

/// One run of `pricehost serve` streaming Coinbase's feed from the case's own venue:
/// the venue, the server (coinbase `"stream": true`, `streamURL` at the venue), its SSE
/// clients, and the venue's connection once the first client made the feed subscribe.
final class StreamSession {
    let venue: StreamVenue
    let server: StartedChild
    let port: UInt16
    let clients: StreamClients
    let connection: VenueConnection
    let sendTimes: SendTimes
    private var frames = TickerFrames()
    private var batch: [UInt8] = []
    /// The next ticker number to send.
    private(set) var next = 0
    private let errors: String

    /// Starts the venue and the server, connects `clientCount` SSE clients read by `threads` threads,
    /// and waits for the feed to subscribe and every client to have its head.
    /// - Parameter timed: how many tickers will be timed: send times are kept for the warm-up and them.
    init(_ context: BenchmarkContext, name: String, clientCount: Int, threads: Int, timed: Int) throws {
        venue = try StreamVenue()
        let config = try context.scratch.write("""
            {"plugins": [\(JSONValue.quoted(context.locations.coinbasePlugin))],
             "providers": {"coinbase": {"baseURL": "http://127.0.0.1:9", "maxAttempts": 1, "timeoutSeconds": 5,
                                        "stream": true, "streamURL": \(JSONValue.quoted(venue.url)), "staleAfterSeconds": 600}},
             "defaults": {"provider": "coinbase"},
             "serve": {"maxConnections": \(clientCount + 64)}}
            """, to: "\(name).json")
        errors = context.scratch.uniquePath(name, suffix: "err")
        let command = Command(context.locations.pricehost, ["serve", "--listen", "127.0.0.1:0", "--config", config])
        // The access log off, as in the serve case: one write(2) per request.
        server = try Children.start(command, standardError: .file(errors), timeoutSeconds: 3600, extraEnvironment: ["PRICEHOST_LOG=warning"])
        sendTimes = SendTimes(capacity: Self.maximumWarmUp + timed)
        var reading: StreamClients?
        do {
            port = try ServeCase.waitForPort(errors, command)
            let made = try StreamClients(port: port, count: clientCount, threads: threads, sendTimes: sendTimes)
            made.start()
            reading = made
            clients = made
            connection = try venue.accept(within: 30)
            guard clients.wait(within: 60, until: { clients.headCount == clientCount }) else {
                throw failure("\(clients.headCount) of \(clientCount) SSE clients got their 200 within 60 s")
            }
        } catch {
            _ = reading?.stop()
            kill(server.pid, SIGKILL)
            _ = server.waitForExit()
            throw error
        }
    }

    /// Tickers sent before every client is known to be subscribed, at most.
    static let maximumWarmUp = 5_000

    /// Sends a ticker every 100 ms until every client has one (so each is subscribed to
    /// the feed's topic), then `extra` more at 200 a second, and waits until each has them all.
    func warmUp(extra: Int = 50) throws {
        while !clients.wait(within: 0.1, until: { clients.slowestLatest >= 0 }) {
            guard next < Self.maximumWarmUp - extra else { throw failure("not every client got an event after \(next) warm-up tickers") }
            sendOne()
        }
        for _ in 0..<extra {
            sendOne()
            usleep(5_000)
        }
        try waitForEveryClient(through: next - 1, within: 300)
        guard clients.cutOffCount == 0 else { throw failure("\(clients.cutOffCount) client(s) were cut off during the warm-up") }
        usleep(200_000)
    }

    /// Writes ticker ``next``, noting when.
    func sendOne() {
        frames.stamp(next)
        sendTimes[next] = Monotonic.nanoseconds()
        _ = frames.frame.withUnsafeBytes { connection.send($0) }
        next += 1
    }

    /// Writes tickers ``next`` to `last` in one write (no send times noted).
    func sendBatch(through last: Int) {
        batch.removeAll(keepingCapacity: true)
        while next <= last {
            frames.append(next, to: &batch)
            next += 1
        }
        _ = batch.withUnsafeBytes { connection.send($0) }
    }

    /// Waits until every client has received ticker `number`.
    func waitForEveryClient(through number: Int, within seconds: Double) throws {
        guard clients.wait(within: seconds, until: { clients.slowestLatest >= number }) else {
            throw failure("not every client got ticker \(number) within \(Int(seconds)) s (the slowest is at \(clients.slowestLatest))")
        }
    }

    /// The feed's counters from `/metrics`: messages, reconnects and gaps.
    func feedCounters() -> (messages: Int, reconnects: Int, gaps: Int)? {
        guard let reply = try? LoopbackHTTPConnection(port: port).get("/metrics"), reply.status == 200 else { return nil }
        func value(_ name: String) -> Int? {
            reply.body.split(separator: "\n").first { $0.hasPrefix(name + "{") }.flatMap { $0.split(separator: " ").last }.flatMap { Int($0) }
        }
        guard let messages = value("pricehost_stream_messages_total"), let reconnects = value("pricehost_stream_reconnects_total"),
              let gaps = value("pricehost_stream_gaps_total") else { return nil }
        return (messages, reconnects, gaps)
    }

    /// The server's CPU time so far (user + system), seconds.
    var serverCPUSeconds: Double {
        let stat = ScratchDirectory.contents(of: "/proc/\(server.pid)/stat")
        // The fields after the command's closing parenthesis; utime and stime are the 14th and 15th of the line.
        guard let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// VmRSS of the server, KiB (`field` VmHWM: its peak so far).
    func serverResidentKilobytes(_ field: String = "VmRSS") throws -> Double {
        let status = ScratchDirectory.contents(of: "/proc/\(server.pid)/status")
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
              let value = Double(line.split(separator: " ").dropFirst().first ?? "") else {
            throw BenchmarkError("stream: cannot read \(field) from /proc/\(server.pid)/status")
        }
        return value
    }

    /// A failure that shows the clients' problems and the server's stderr.
    func failure(_ what: String) -> BenchmarkError {
        let latest = clients.progress.map { $0.latest.load(ordering: .acquiring) }
        let slowest = latest.min() ?? -1
        let state = "  sent through ticker \(next - 1); the clients' latest: \(slowest) (\(latest.filter { $0 == slowest }.count) clients) to \(latest.max() ?? -1)"
            + "; feed: \(feedCounters().map { "\($0)" } ?? "no /metrics")"
        let problems = ([state] + clients.problemList.prefix(5).map { "  client: " + $0 }).joined(separator: "\n")
        let log = ScratchDirectory.contents(of: errors).split(separator: "\n").suffix(20).map { "  | " + $0 }.joined(separator: "\n")
        return BenchmarkError("stream: \(what)\n\(problems)\n  the server's stderr:\n\(log)")
    }

    /// Stops the clients, then the server, then the venue; the latency samples (ns, sorted).
    func stop() -> [UInt64] {
        let samples = clients.stop()
        kill(server.pid, SIGTERM)
        _ = server.waitForExit()
        connection.close()
        return samples
    }
}
