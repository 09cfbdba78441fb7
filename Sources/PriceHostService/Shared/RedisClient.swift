import ConcurrencyHelpers
import Dispatch
import PriceHostCore

/// The fleet's connection to Redis: one TCP connection, one thread of its own.
///
/// Callers `await` their commands; the thread takes everything queued, writes it
/// in one go and reads the replies in order (pipelining: 200 requests at once cost
/// one round trip, not 200). Blocking I/O stays off Swift concurrency's cooperative
/// threads. Every exchange has a deadline (`commandTimeout`), connecting too.
///
/// When Redis cannot be reached, every call fails at once with ``RedisError`` (the
/// caller then works alone), one warning says so, and the thread tries again with
/// backoff (0.1 s doubling to 5 s); when Redis is back one line says that too.
final class RedisClient: Sendable {
    /// Whether the fleet is sharing now.
    enum Health: Sendable, Equatable {
        /// The first connection is being made.
        case connecting
        /// Connected; the last exchange worked.
        case up
        /// Not connected, and why.
        case down(String)
    }

    private struct Pending {
        var calls: [RedisCall]
        var continuation: CheckedContinuation<[RESPValue], any Error>
    }

    private struct State {
        var queue: [Pending] = []
        var closed = false
        var health = Health.connecting
        /// While down, calls fail at once until this moment, when the thread tries again.
        var retryAt: ContinuousClock.Instant?
    }

    /// Where Redis is.
    let url: RedisURL
    /// The longest a connection attempt may take.
    let connectTimeout: Duration
    /// The longest one exchange (a pipeline and its replies) may take.
    let commandTimeout: Duration
    private let observer: any RedisObserver
    private let diagnostics: Diagnostics
    private let state = Lock(State())
    private let wake = DispatchSemaphore(value: 0)

    /// Creates the client; ``start()`` connects.
    init(url: RedisURL, connectTimeout: Duration, commandTimeout: Duration, observer: any RedisObserver, diagnostics: Diagnostics) {
        self.url = url
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
        self.observer = observer
        self.diagnostics = diagnostics
    }

    /// Starts the client's thread, which connects at once; false when no thread could be made
    /// (every call then fails, and the fleet works alone).
    @discardableResult
    package func start() -> Bool {
        let started = DetachedThread.start { [self] in run() }
        if !started { state.withLock { $0.health = .down("cannot start a thread for redis") } }
        return started
    }

    /// Stops the thread; calls queued and to come fail.
    package func shutdown() {
        state.withLock { $0.closed = true }
        wake.signal()
    }

    /// Whether the fleet is sharing now.
    var health: Health { state.withLock { $0.health } }

    /// Sends `calls` in one pipeline and returns their replies in order. A reply may be
    /// `.error` (Redis refused that command); ``RedisError`` means no exchange happened.
    func perform(_ calls: [RedisCall]) async throws -> [RESPValue] {
        try await withCheckedThrowingContinuation { continuation in
            let refusal: RedisError? = state.withLock { state in
                if state.closed { return RedisError("the redis client has stopped") }
                if case .down(let reason) = state.health, let retryAt = state.retryAt, ContinuousClock.now < retryAt {
                    return RedisError(reason)
                }
                state.queue.append(Pending(calls: calls, continuation: continuation))
                return nil
            }
            if let refusal { continuation.resume(throwing: refusal) } else { wake.signal() }
        }
    }

    /// One call's reply.
    func perform(_ call: RedisCall) async throws -> RESPValue {
        let replies = try await perform([call])
        guard let reply = replies.first else { throw RedisError("no reply") }
        return reply
    }

    // MARK: The thread

    private func run() {
        var connection: RedisConnection?
        var scripts: [String: String] = [:]
        var backoff: Duration = .milliseconds(100)
        var nextAttempt = ContinuousClock.now
        while true {
            let wait = connection == nil ? max(.zero, ContinuousClock.now.duration(to: nextAttempt)) : .seconds(1)
            _ = wake.wait(timeout: .now() + .nanoseconds(Int(wait.components.seconds) * 1_000_000_000 + Int(wait.components.attoseconds / 1_000_000_000)))
            let (batch, closed) = state.withLock { state in
                defer { state.queue = [] }
                return (state.queue, state.closed)
            }
            if closed {
                fail(batch, RedisError("the redis client has stopped"))
                return
            }
            if connection == nil {
                guard ContinuousClock.now >= nextAttempt else {
                    fail(batch, RedisError(downReason ?? "redis is unavailable"))
                    continue
                }
                do {
                    // The backoff starts again only once an exchange works: a Redis that accepts connections
                    // but does not answer commands is not retried (and reported) ten times a second.
                    connection = try connect(&scripts)
                    markUp()
                } catch {
                    observer.redisFailed()
                    nextAttempt = ContinuousClock.now + backoff
                    markDown(error, retryAt: nextAttempt)
                    backoff = min(backoff * 2, .seconds(5))
                    fail(batch, error)
                    continue
                }
            }
            guard !batch.isEmpty, let open = connection else { continue }
            do {
                try exchange(batch, on: open, scripts: scripts)
                backoff = .milliseconds(100)
            } catch {
                connection = nil
                // A connection Redis closed (a restart, an idle timeout) is not an outage: one fresh connection, one more try.
                if !error.timedOut, let fresh = try? connect(&scripts), (try? exchange(batch, on: fresh, scripts: scripts)) != nil {
                    connection = fresh
                    backoff = .milliseconds(100)
                    continue
                }
                observer.redisFailed()
                // Try again soon: a broken connection is often a restart; a slow Redis gets the backoff.
                nextAttempt = ContinuousClock.now + backoff
                markDown(error, retryAt: nextAttempt)
                backoff = min(backoff * 2, .seconds(5))
                fail(batch, error)
            }
        }
    }

    private var downReason: String? {
        state.withLock { state in
            if case .down(let reason) = state.health { return reason }
            return nil
        }
    }

    private func markUp() {
        let previous = state.withLock { state in
            defer { state.health = .up; state.retryAt = nil }
            return state.health
        }
        if case .down = previous {
            diagnostics.warning("shared: redis at \(url.address) is reachable again; the fleet shares its cache and request budgets again")
        }
    }

    private func markDown(_ error: RedisError, retryAt: ContinuousClock.Instant) {
        let wasDown = state.withLock { state in
            let wasDown = if case .down = state.health { true } else { false }
            state.health = .down(error.description)
            state.retryAt = retryAt
            return wasDown
        }
        // Once per outage: the next line about redis says it is back.
        if !wasDown {
            diagnostics.warning("shared: redis at \(url.address) is unavailable (\(error.description)); each instance uses its own cache, coalescing and request budgets until it returns")
        }
    }

    private func fail(_ batch: [Pending], _ error: RedisError) {
        for pending in batch { pending.continuation.resume(throwing: error) }
    }

    /// Connects, authenticates, selects the database and loads the scripts, in one round trip.
    private func connect(_ scripts: inout [String: String]) throws(RedisError) -> RedisConnection {
        let connection = try RedisConnection.open(url, timeout: connectTimeout)
        var commands: [[String]] = []
        if let password = url.password { commands.append(url.user.map { ["AUTH", $0, password] } ?? ["AUTH", password]) }
        if url.database != 0 { commands.append(["SELECT", String(url.database)]) }
        let firstScript = commands.count
        for script in RedisScript.all { commands.append(["SCRIPT", "LOAD", script.source]) }
        let bytes = commands.flatMap { RESP.command($0) }
        let replies = try connection.exchange(bytes, replies: commands.count, deadline: .now + commandTimeout)
        for (index, reply) in replies.enumerated() {
            if case .error(let message) = reply {
                let what = index < firstScript ? commands[index][0] : "SCRIPT LOAD"
                throw RedisError("redis refused \(what): \(message)")
            }
            if index >= firstScript {
                guard let sha = reply.text else { throw RedisError("redis answered SCRIPT LOAD with something other than a SHA-1") }
                scripts[RedisScript.all[index - firstScript].name] = sha
            }
        }
        return connection
    }

    private static func encode(_ call: RedisCall, scripts: [String: String], forceEval: Bool = false) -> [UInt8] {
        switch call {
        case .command(let arguments):
            return RESP.command(arguments)
        case .script(let script, let keys, let arguments):
            let head = !forceEval && scripts[script.name] != nil ? ["EVALSHA", scripts[script.name] ?? ""] : ["EVAL", script.source]
            return RESP.command(head + [String(keys.count)] + keys + arguments)
        }
    }

    /// Writes every call of `batch`, reads the replies and hands each caller its own.
    private func exchange(_ batch: [Pending], on connection: RedisConnection, scripts: [String: String]) throws(RedisError) {
        let calls = batch.flatMap(\.calls)
        let started = ContinuousClock.now
        let deadline = started + commandTimeout
        var replies = try connection.exchange(calls.flatMap { Self.encode($0, scripts: scripts) }, replies: calls.count, deadline: deadline)
        // NOSCRIPT: Redis restarted or flushed its scripts since we connected; EVAL loads them again.
        let forgotten = calls.indices.filter { index in
            guard case .script = calls[index], case .error(let message) = replies[index] else { return false }
            return message.hasPrefix("NOSCRIPT")
        }
        if !forgotten.isEmpty {
            let again = try connection.exchange(forgotten.flatMap { Self.encode(calls[$0], scripts: scripts, forceEval: true) },
                                                replies: forgotten.count, deadline: deadline)
            for (index, reply) in zip(forgotten, again) { replies[index] = reply }
        }
        observer.redisExchanged(duration: started.duration(to: .now))
        var offset = 0
        for pending in batch {
            let count = pending.calls.count
            pending.continuation.resume(returning: Array(replies[offset..<(offset + count)]))
            offset += count
        }
    }
}
