import Glibc

/// What the stream cases' runs share: the venue's ``TickerWriter``, the servers it feeds, and
/// their SSE clients, one ``StreamClients`` per server, which time each ticker's event.
/// ``StreamSession`` is one server; ``StreamFleet`` is several sharing one feed through Redis.
protocol StreamRun: AnyObject {
    var writer: TickerWriter { get }
    var servers: [StreamServer] { get }
    /// The clients of each server, in the order of ``servers``.
    var clientGroups: [StreamClients] { get }
    /// The case's name, first in a failure's message.
    var label: String { get }
}

extension StreamRun {
    /// The next ticker number to send.
    var next: Int { writer.next }

    /// Writes ticker ``next``, noting when.
    func sendOne() { writer.sendOne() }

    /// The lowest ticker number every client still streaming has received, over every server
    /// (-1 while one has none; `Int.max` when none is streaming).
    var slowestLatest: Int { clientGroups.map(\.slowestLatest).min() ?? .max }

    /// Clients the servers cut off for staying behind.
    var cutOffCount: Int { clientGroups.map(\.cutOffCount).reduce(0, +) }

    /// Waits at most `seconds` until every client has its `200` head.
    func waitForHeads(within seconds: Double) throws {
        let wanted = clientGroups.map(\.count).reduce(0, +)
        var heads: Int { clientGroups.map(\.headCount).reduce(0, +) }
        guard StreamClients.wait(for: clientGroups, within: seconds, until: { heads == wanted }) else {
            throw failure("\(heads) of \(wanted) SSE clients got their 200 within \(Int(seconds)) s")
        }
    }

    /// Sends a ticker every 100 ms until every client has one (so each is subscribed to
    /// the feed's topic), then `extra` more at 200 a second, and waits until each has them all.
    func warmUp(extra: Int = 50) throws {
        while !StreamClients.wait(for: clientGroups, within: 0.1, until: { slowestLatest >= 0 }) {
            guard next < TickerWriter.maximumWarmUp - extra else { throw failure("not every client got an event after \(next) warm-up tickers") }
            sendOne()
        }
        for _ in 0..<extra {
            sendOne()
            usleep(5_000)
        }
        try waitForEveryClient(through: next - 1, within: 300)
        guard cutOffCount == 0 else { throw failure("\(cutOffCount) client(s) were cut off during the warm-up") }
        usleep(200_000)
    }

    /// Sends `tickers` at `rate` a second, each write at its time on the clock, timed at every
    /// client, and waits until each has them all.
    func sendTimed(_ tickers: Int, perSecond rate: Int) throws {
        let timed = timeNext(tickers)
        let interval = UInt64(1_000_000_000 / rate)
        let start = Monotonic.nanoseconds() + 1_000_000
        for index in 0..<tickers {
            Monotonic.sleep(until: start + UInt64(index) * interval)
            sendOne()
        }
        try waitForEveryClient(through: timed.upperBound - 1, within: 300)
    }

    /// Times the next `tickers` tickers at every client; their numbers.
    @discardableResult
    func timeNext(_ tickers: Int) -> Range<Int> {
        let timed = next..<(next + tickers)
        for clients in clientGroups { clients.time(timed) }
        return timed
    }

    /// Waits until every client has received ticker `number`.
    func waitForEveryClient(through number: Int, within seconds: Double) throws {
        guard StreamClients.wait(for: clientGroups, within: seconds, until: { slowestLatest >= number }) else {
            throw failure("not every client got ticker \(number) within \(Int(seconds)) s (the slowest is at \(slowestLatest))")
        }
    }

    /// A failure that shows the clients' progress and problems, each server's feed counters and its stderr.
    func failure(_ what: String) -> BenchmarkError {
        let latest = clientGroups.flatMap(\.progress).map { $0.latest.load(ordering: .acquiring) }
        let slowest = latest.min() ?? -1
        var lines = ["  sent through ticker \(next - 1); the clients' latest: \(slowest) (\(latest.filter { $0 == slowest }.count) clients) to \(latest.max() ?? -1)"]
        lines += clientGroups.flatMap(\.problemList).prefix(5).map { "  client: " + $0 }
        for (index, server) in servers.enumerated() {
            let which = servers.count == 1 ? "the server" : "instance \(index + 1) (port \(server.port))"
            lines.append("  \(which): feed \(server.feedCounters().map { "\($0)" } ?? "(none or no /metrics)"); its stderr:")
            lines.append(server.standardErrorTail)
        }
        return BenchmarkError("\(label): \(what)\n" + lines.filter { !$0.isEmpty }.joined(separator: "\n"))
    }
}
