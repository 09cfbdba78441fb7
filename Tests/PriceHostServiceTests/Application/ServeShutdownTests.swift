import ConcurrencyHelpers
import Glibc
@testable import PriceHostCore
@testable import PriceHostService
import PriceHostTestTraits
import PriceHostTesting
import Testing

/// ``ServeApplication`` stopped by SIGTERM (from ``ManualSignals``, in this process): nothing it
/// started is left: no Redis connection of the instance, no listener. Skips, saying why,
/// without redis-server.
@Suite(.offThePool, .timeLimit(.minutes(1)))
struct ServeShutdownTests {
    /// The clients Redis has now, other than the `redis-cli` asking.
    static func clients(of redis: RedisServer) throws -> Int {
        try redis.cli(["CLIENT", "LIST"]).split(separator: "\n").filter { !$0.contains("cmd=client") }.count
    }

    /// Waits, at most `seconds` in steps of 20 ms, until `condition` holds.
    static func eventually(seconds: Int = 5, _ condition: () throws -> Bool) rethrows -> Bool {
        for _ in 0..<(seconds * 50) {
            if try condition() { return true }
            usleep(20_000)
        }
        return try condition()
    }

    @Test func sigtermShutsDownTheListenerAndTheFleetsRedisClient() async throws {
        guard RedisServer.installed != nil else {
            print("ServeShutdownTests: \(RedisServer.missingReason)")
            return
        }
        let redis = try RedisServer()
        defer { redis.stop() }
        try await TemporaryDirectory.with { directory in
            let lines = ServeReloadTests.Lines()
            let assembly = ServeReloadTests.Assembly(directory: directory, diagnostics: lines.diagnostics)
            try assembly.write(#"{"plugins": [], "shared": {"redis": "\#(redis.url)"}}"#)
            let config = try #require(try? assembly.loadConfig().get())
            let signals = ManualSignals()
            let address = Lock<ListenAddress?>(nil)
            var options = ServeApplication.Options(listen: ListenAddress(host: "127.0.0.1", port: 0), environment: [:], diagnostics: lines.diagnostics)
            options.signals = signals
            options.listening = { listening in address.withLock { $0 = listening } }
            let application = ServeApplication(config: config, assembly: assembly, options: options)
            let run = Task(executorPreference: DispatchThreadsExecutor()) { await application.run() }
            // Off the pool, where synchronous end-to-end tests hold both threads for seconds.
            guard Self.eventually(seconds: 30, { address.withLock { $0 } != nil }) else {
                Issue.record("serve did not listen within 30 s: \(lines.all)")
                if signals.isHandling(SIGTERM) { signals.send(SIGTERM) }
                return
            }
            let port = try #require(address.withLock { $0 }).port
            let ready = try LoopbackHTTPConnection(port: port).get("/readyz")
            #expect(ready.status == 200)
            // The fleet's client connects in the background: it is there before the stop.
            #expect(try Self.eventually { try Self.clients(of: redis) == 1 })

            #expect(signals.send(SIGTERM))
            #expect(await run.value == .stopped)
            #expect(try Self.eventually { try Self.clients(of: redis) == 0 }, "the instance's Redis connection outlived its SIGTERM")
            #expect(throws: (any Error).self, "the listener outlived its SIGTERM") { try LoopbackHTTPConnection(port: port) }
        }
    }
}
