import ConcurrencyHelpers
import Glibc
@testable import PriceHostCore
@testable import PriceHostService
import PriceHostTestTraits
import PriceHostTesting
import Testing

/// The client against a real redis-server on a loopback port: pipelining, the
/// scripts, `NOSCRIPT`, and Redis gone. Skips, saying why, without redis-server.
@Suite(.offThePool, .timeLimit(.minutes(1)))
struct RedisClientTests {
    final class Lines: Sendable {
        let lines = Lock<[String]>([])
        var diagnostics: Diagnostics { Diagnostics(threshold: .debug, sink: { [lines] line in lines.withLock { $0.append(line) } }) }
    }

    static func client(port: UInt16, lines: Lines = Lines(), metrics: SharedMetrics = SharedMetrics()) -> RedisClient {
        let client = RedisClient(url: RedisURL(host: "127.0.0.1", port: port), connectTimeout: .seconds(2), commandTimeout: .seconds(5),
                                 observer: metrics, diagnostics: lines.diagnostics)
        client.start()
        return client
    }

    static func redis() throws -> RedisServer? {
        guard RedisServer.installed != nil else {
            print("RedisClientTests: \(RedisServer.missingReason)")
            return nil
        }
        return try RedisServer()
    }

    @Test func concurrentCallsArePipelinedAndEachGetsItsOwnReply() async throws {
        guard let redis = try Self.redis() else { return }
        let metrics = SharedMetrics()
        let client = Self.client(port: redis.port, metrics: metrics)
        defer { client.shutdown() }
        let replies = try await withThrowingTaskGroup(of: RESPValue.self) { group in
            // One call holds the connection for a second first (BLPOP on an empty list), so the calls
            // made meanwhile queue up together however the machine schedules their tasks: in a loaded
            // run they could otherwise each find the connection idle and go alone.
            group.addTask { try await client.perform(.command(["BLPOP", "pricehost-test-empty", "1"])) }
            // Bounded: 250 looks, 20 ms apart; stops at the first that sees the BLPOP blocked.
            for _ in 0..<250 {
                guard try redis.cli(["INFO", "clients"]).contains("blocked_clients:0") else { break }
                usleep(20_000)
            }
            for _ in 0..<200 { group.addTask { try await client.perform(.command(["INCR", "n"])) } }
            var replies: [RESPValue] = []
            for try await reply in group { replies.append(reply) }
            return replies
        }
        #expect(Set(replies.compactMap { if case .integer(let n) = $0 { n } else { nil } }) == Set(1...200))
        #expect(try redis.cli(["GET", "n"]) == "200")
        // Fewer round trips than calls: they were batched.
        let exposition = metrics.exposition(health: .up)
        let line = exposition.split(separator: "\n").first { $0.hasPrefix("pricehost_redis_command_duration_seconds_count ") }
        let count = line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
        #expect(count >= 1 && count < 200, "\(count) round trips for 200 calls")
        #expect(client.health == .up)
    }

    @Test func aScriptRedisForgotIsSentAgainWithItsSource() async throws {
        guard let redis = try Self.redis() else { return }
        let client = Self.client(port: redis.port)
        defer { client.shutdown() }
        #expect(try await client.perform(.command(["SET", "lock", "mine"])) == .simple("OK"))
        try redis.cli(["SCRIPT", "FLUSH"])
        #expect(try await client.perform(.script(.release, keys: ["lock"], arguments: ["theirs"])) == .integer(0))
        #expect(try await client.perform(.script(.release, keys: ["lock"], arguments: ["mine"])) == .integer(1))
        #expect(try redis.cli(["EXISTS", "lock"]) == "0")
    }

    @Test func theFleetsBucketGivesTheBurstThenOneTokenPerInterval() async throws {
        guard let redis = try Self.redis() else { return }
        let client = Self.client(port: redis.port)
        defer { client.shutdown() }
        var waits: [Int] = []
        for _ in 0..<5 {
            guard case .integer(let wait) = try await client.perform(.script(.takeToken, keys: ["b"], arguments: ["0.001", "3"])) else {
                Issue.record("not an integer")
                return
            }
            waits.append(wait)
        }
        #expect(waits[0...2] == [0, 0, 0], "\(waits)")
        // One token per 1,000 s: the 4th waits for the next, the 5th for one more; the bounds
        // leave a minute for the calls themselves on a busy machine, and 2 ms for the script's
        // rounding up of a binary fraction (1 / 0.001 is not exact).
        #expect((940_000...1_000_002).contains(waits[3]) && (940_000...1_000_002).contains(waits[4] - waits[3]), "\(waits)")
        // Bad data in the bucket's key: it starts again full.
        try redis.cli(["SET", "b", "garbage"])
        #expect(try await client.perform(.script(.takeToken, keys: ["b"], arguments: ["1.0", "3"])) == .integer(0))
        try redis.cli(["HSET", "c", "tokens", "NaN", "at", "x"])
        #expect(try await client.perform(.script(.takeToken, keys: ["c"], arguments: ["1.0", "3"])) == .integer(0))
    }

    @Test func withoutRedisCallsFailAtOnceAndOneWarningSaysWhy() async throws {
        let port = try RedisServer.freePort()
        let lines = Lines()
        let client = Self.client(port: port, lines: lines)
        defer { client.shutdown() }
        for _ in 0..<3 {
            await #expect(throws: RedisError("cannot connect to 127.0.0.1:\(port): Connection refused")) {
                try await client.perform(.command(["PING"]))
            }
        }
        #expect(client.health == .down("cannot connect to 127.0.0.1:\(port): Connection refused"))
        #expect(lines.lines.withLock { $0 } == ["pricehost: warning: shared: redis at 127.0.0.1:\(port) is unavailable (cannot connect to 127.0.0.1:\(port): Connection refused); each instance uses its own cache, coalescing and request budgets until it returns"])
    }
}
