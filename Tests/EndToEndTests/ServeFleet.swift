import Foundation
import Glibc
import PriceHostTesting
import Testing

/// A fleet for a test: Debian's redis-server on a free port, a Coinbase-shaped
/// loopback upstream, a sandbox whose config shares through that Redis, and
/// `pricehost serve` instances on it, each connected to Redis before the test
/// goes on. ``stop()`` ends them all.
final class ServeFleet {
    let redis: RedisServer
    let upstream: LoopbackHTTPServer
    let sandbox: Sandbox
    let servers: [ServeProcess]
    /// The first instance.
    var server: ServeProcess { servers[0] }

    /// Starts the fleet, or returns `nil` with the reason printed when redis-server is not installed.
    /// - Parameters:
    ///   - coinbase: the provider's settings besides `baseURL` and `maxAttempts` 1.
    ///   - shared: more keys of `shared` after `redis`.
    ///   - prepare: runs on Redis before any instance starts (bad data, say).
    static func start(instances: Int = 1, upstreamDelay: Double = 0, coinbase: String = #""cacheSeconds": 60"#, shared: String = patient,
                      environment: [String: String] = ["PRICEHOST_LOG": "warning"], prepare: (RedisServer) throws -> Void = { _ in }) throws -> ServeFleet? {
        guard let redis = try startRedis() else { return nil }
        try prepare(redis)
        let upstream = try Self.upstream(delay: upstreamDelay)
        let sandbox = try Self.sandbox(upstream, redis, coinbase: coinbase, shared: shared)
        var servers: [ServeProcess] = []
        do {
            for _ in 0..<instances { servers.append(try ServeProcess(sandbox, environment: environment)) }
            try servers.forEach(waitUntilShared)
        } catch {
            servers.forEach { $0.stop() }
            upstream.stop()
            sandbox.remove()
            throw error
        }
        return ServeFleet(redis: redis, upstream: upstream, sandbox: sandbox, servers: servers)
    }

    private init(redis: RedisServer, upstream: LoopbackHTTPServer, sandbox: Sandbox, servers: [ServeProcess]) {
        self.redis = redis
        self.upstream = upstream
        self.sandbox = sandbox
        self.servers = servers
    }

    /// Stops the instances and the upstream, and removes the sandbox; Redis ends when released.
    func stop() {
        servers.forEach { $0.stop() }
        upstream.stop()
        sandbox.remove()
    }

    static let prices = ["BTC": "91234.56", "ETH": "3120.48", "SOL": "142.5", "ADA": "0.61", "XRP": "2.2", "DOT": "7.35"]

    /// An upstream answering Coinbase's spot shape for every asset of ``prices`` (after `delay` seconds).
    static func upstream(delay: Double = 0) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request, _ in
            guard let asset = prices.keys.first(where: { request.path.contains("/\($0)-USD/") }) else {
                return .init(status: 404, body: CoinbaseTests.errors("not_found", "Invalid base currency"))
            }
            return .init(body: CoinbaseTests.spot(asset, "USD", prices[asset] ?? ""), delay: delay)
        }
    }

    static func sandbox(_ upstream: LoopbackHTTPServer, _ redis: RedisServer, coinbase: String = #""cacheSeconds": 60"#,
                        shared: String = patient) throws -> Sandbox {
        try Sandbox(config: """
            {"plugins": ["libCoinbaseProvider.so"],
             "providers": {"coinbase": {"baseURL": "\(upstream.baseURL)", "maxAttempts": 1, \(coinbase)}},
             "defaults": {"provider": "coinbase"},
             "shared": {"redis": "\(redis.url)"\(shared)}}
            """)
    }

    /// A command timeout generous enough for a busy machine: these tests are about sharing, not about a slow Redis.
    static let patient = #", "commandTimeoutSeconds": 5"#

    /// Redis, or `nil` with the reason printed.
    static func startRedis() throws -> RedisServer? {
        guard RedisServer.installed != nil else {
            print("ServeFleet: \(RedisServer.missingReason)")
            return nil
        }
        return try RedisServer()
    }

    /// Waits (at most 10 s) until `server`'s /readyz says Redis is connected.
    static func waitUntilShared(_ server: ServeProcess) throws {
        for _ in 0..<200 {
            if try server.get("/readyz").body.contains("connected") { return }
            usleep(50_000)
        }
        Issue.record("the instance never connected to redis: \(try server.get("/readyz").body)\n\(server.process.standardError)")
    }

    /// The value of `name{labels}` in an exposition, 0 when absent.
    static func sample(_ metrics: String, _ line: String) -> Int {
        for row in metrics.split(separator: "\n") where row.hasPrefix(line + " ") {
            return Int(row.dropFirst(line.count + 1)) ?? -1
        }
        return 0
    }

}
