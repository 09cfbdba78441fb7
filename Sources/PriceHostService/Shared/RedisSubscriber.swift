import ConcurrencyHelpers
import Glibc
import PriceHostCore

/// A connection of its own to Redis in subscriber mode (`PSUBSCRIBE`), on a thread of its
/// own: a connection that subscribes can run no other command, so it is not ``RedisClient``'s.
/// Each message on a channel matching the pattern goes to `deliver` with its channel, in the
/// order Redis sent them. A broken connection is made again after a backoff (0.1 s doubling
/// to 5 s); messages published meanwhile are lost to this instance (the fleet's history in
/// Redis keeps them for a client's `Last-Event-ID`).
final class RedisSubscriber: Sendable {
    let url: RedisURL
    let pattern: String
    private let connectTimeout: Duration
    private let stopped = Lock(false)

    init(url: RedisURL, pattern: String, connectTimeout: Duration) {
        self.url = url
        self.pattern = pattern
        self.connectTimeout = connectTimeout
    }

    /// Starts the thread, which hands each message to `deliver`; false when no thread could be made.
    @discardableResult
    func start(_ deliver: @escaping @Sendable (_ channel: String, _ payload: [UInt8]) -> Void) -> Bool {
        DetachedThread.start { [self] in run(deliver) }
    }

    /// Ends the thread within half a second.
    func stop() { stopped.withLock { $0 = true } }

    private var isStopped: Bool { stopped.withLock { $0 } }

    private func run(_ deliver: @Sendable (String, [UInt8]) -> Void) {
        var backoff: Duration = .milliseconds(100)
        while !isStopped {
            do {
                let connection = try subscribe()
                backoff = .milliseconds(100)
                while !isStopped {
                    guard let message = try connection.nextPush(until: .now + .milliseconds(500)) else { continue }
                    // ["pmessage", pattern, channel, payload]
                    guard case .array(let parts?) = message, parts.count == 4, parts[0].text == "pmessage",
                          let channel = parts[2].text, case .bulk(let payload?) = parts[3] else { continue }
                    deliver(channel, payload)
                }
            } catch {
                // The client's own warnings say when Redis is down; this connection just tries again.
                let until = ContinuousClock.now + backoff
                while !isStopped, ContinuousClock.now < until { usleep(50_000) }
                backoff = min(backoff * 2, .seconds(5))
            }
        }
    }

    private func subscribe() throws(RedisError) -> RedisConnection {
        let connection = try RedisConnection.open(url, timeout: connectTimeout)
        var commands: [[String]] = []
        if let password = url.password { commands.append(url.user.map { ["AUTH", $0, password] } ?? ["AUTH", password]) }
        commands.append(["PSUBSCRIBE", pattern])
        let replies = try connection.exchange(commands.flatMap { RESP.command($0) }, replies: commands.count, deadline: .now + connectTimeout)
        for reply in replies {
            if case .error(let message) = reply { throw RedisError("redis refused the subscription: \(message)") }
        }
        return connection
    }
}
