import Foundation
import Glibc
import PriceHostTestTraits
import PriceHostTesting
import Testing

/// Several `serve` instances sharing one Redis (`shared.redis`): one cache, one fetch
/// per pair for the fleet, one request budget; and each instance alone when Redis is
/// gone or holds nonsense. Skips, saying why, when redis-server is not installed.
@Suite(.serialized, .offThePool, .timeLimit(.minutes(3)))
struct ServeFleetTests {
    @Test func twoInstancesAskedByTwoHundredClientsAtOnceMakeOneUpstreamRequest() throws {
        // Slow enough that every request arrives while the first fetch is in flight.
        guard let fleet = try ServeFleet.start(instances: 2, upstreamDelay: 1.5) else { return }
        defer { fleet.stop() }
        let (redis, upstream, servers) = (fleet.redis, fleet.upstream, fleet.servers)
        let clients = try (0..<200).map { index in try servers[index % 2].connect(timeout: 60) }
        for client in clients { try client.send("GET /v1/prices?asset=BTC HTTP/1.1\r\nHost: x\r\n\r\n") }
        let replies = try clients.map { try $0.readReply() }
        #expect(replies.allSatisfy { $0.status == 200 }, "\(replies.filter { $0.status != 200 }.prefix(3))")
        #expect(Set(replies.map { withoutAges($0.body) }).count == 1, "\(Set(replies.map(\.body)))")
        #expect(replies.first?.body.hasPrefix(#"[{"asset":"BTC","currency":"USD","amount":"91234.56","provider":"coinbase","#) == true)
        #expect(upstream.requestCount(path: "/v2/prices/BTC-USD/spot") == 1)
        let metrics = try servers.map { try $0.get("/metrics").body }
        let misses = metrics.map { ServeFleet.sample($0, #"pricehost_shared_cache_misses_total{provider="coinbase"}"#) }
        let waits = metrics.map { ServeFleet.sample($0, #"pricehost_shared_waits_total{provider="coinbase"}"#) }
        let hits = metrics.map { ServeFleet.sample($0, #"pricehost_shared_cache_hits_total{provider="coinbase"}"#) }
        // One instance fetched; the other's one local fetch found it fetching (or, late, cached).
        #expect(misses.reduce(0, +) == 1 && waits.reduce(0, +) + hits.reduce(0, +) == 1, "misses \(misses) waits \(waits) hits \(hits)")
        #expect(metrics.allSatisfy { $0.contains("\npricehost_redis_up 1\n") })
        let stored = try redis.cli(["GET", "pricehost:quote:coinbase:BTC-USD"])
        #expect(stored.contains(#""amount":"91234.56""#) && stored.contains(#""timestamp":""#), "\(stored)")
        let ttl = Int(try redis.cli(["PTTL", "pricehost:quote:coinbase:BTC-USD"])) ?? -1
        #expect((50_000...60_000).contains(ttl), "PTTL \(ttl): PX must be cacheSeconds")
    }

    @Test func withRedisKilledMidRunEveryRequestIsStillAnswered() throws {
        // A short cache, so that fetches go on happening while Redis is gone.
        guard let fleet = try ServeFleet.start(instances: 2, coinbase: #""cacheSeconds": 1, "requestsPerSecond": 100"#) else { return }
        defer { fleet.stop() }
        let (redis, servers) = (fleet.redis, fleet.servers)
        let connections = try servers.map { try $0.connect() }
        let assets = Array(ServeFleet.prices.keys)
        let started = Date()
        var killed = false
        var answered = 0
        // Bounded: at most 400 rounds, and 4 s.
        for round in 0..<400 where Date().timeIntervalSince(started) < 4 {
            if !killed, Date().timeIntervalSince(started) > 1.5 {
                redis.stop()
                killed = true
            }
            for connection in connections {
                let reply = try connection.get("/v1/prices?asset=\(assets[round % assets.count])")
                #expect(reply.status == 200, "\(reply)")
                answered += 1
            }
            usleep(5000)
        }
        #expect(killed && answered > 20)
        for server in servers {
            let ready = try server.get("/readyz")
            #expect(ready.status == 200)
            #expect(ready.body.hasPrefix(#"{"status":"degraded","plugins":1,"shared":"redis 127.0.0.1:\#(redis.port): unavailable ("#), "\(ready.body)")
            let metrics = try server.get("/metrics").body
            #expect(metrics.contains("\npricehost_redis_up 0\n"), "\(metrics)")
            #expect(ServeFleet.sample(metrics, "pricehost_redis_errors_total") >= 1)
            // The state changes before the line is written: wait for the line, then count.
            let unavailable = "shared: redis at 127.0.0.1:\(redis.port) is unavailable"
            _ = server.process.waitForErrorLine(containing: unavailable, within: 10)
            let warnings = server.process.errorLines.filter { $0.contains(unavailable) }
            #expect(warnings.count == 1, "warned \(warnings.count) times:\n\(server.process.standardError)")
        }
    }

    @Test func aValueInRedisThatIsNotAQuoteIsNeverServedAndIsOverwritten() throws {
        let key = { (asset: String) in "pricehost:quote:coinbase:\(asset)-USD" }
        guard let fleet = try ServeFleet.start(prepare: { redis in
            try redis.cli(["SET", key("BTC"), "{not json"])
            try redis.cli(["SET", key("ETH"), #"{"v":1,"asset":"SOL","currency":"USD","amount":"666","provider":"coinbase","timestamp":"1763640000"}"#])
            try redis.cli(["SET", key("SOL"), #"{"v":1,"asset":"SOL","currency":"USD","amount":"6.6.6","provider":"coinbase","timestamp":"1763640000"}"#])
            try redis.cli(["SET", key("ADA"), #"{"v":1,"asset":"ADA","currency":"USD","amount":"666","provider":"coinbase","timestamp":"1e400"}"#])
            try redis.cli(["HSET", key("XRP"), "amount", "666"])
            // Well-formed, but with no expiry: the fleet always sets PX, so this was not written by it.
            try redis.cli(["SET", key("DOT"), #"{"v":1,"asset":"DOT","currency":"USD","amount":"666","provider":"coinbase","timestamp":"1763640000"}"#])
        }) else { return }
        defer { fleet.stop() }
        let (redis, server) = (fleet.redis, fleet.server)
        for asset in ["BTC", "ETH", "SOL", "ADA", "XRP", "DOT"] {
            let reply = try server.get("/v1/prices?asset=\(asset)")
            #expect(reply.status == 200)
            #expect(reply.body.contains(#""amount":"\#(ServeFleet.prices[asset] ?? "")""#) && !reply.body.contains("666"), "\(asset): \(reply.body)")
            let stored = try redis.cli(["GET", key(asset)])
            #expect(stored.contains(#""asset":"\#(asset)""#) && stored.contains(#""amount":"\#(ServeFleet.prices[asset] ?? "")""#), "\(asset): \(stored)")
        }
        // Logged once per key: the hash (XRP) is removed by the script, not reported as text.
        let warnings = server.process.errorLines.filter { $0.contains("holds a value that is not a quote") }
        #expect(warnings.count == 5, "\(server.process.standardError)")
        #expect(warnings.contains { $0.contains(key("BTC")) })
        let metrics = try server.get("/metrics").body
        #expect(ServeFleet.sample(metrics, #"pricehost_shared_bad_values_total{provider="coinbase"}"#) == 5, "\(metrics)")
    }

    @Test func fourInstancesUnderLoadKeepOneRequestBudgetBetweenThem() throws {
        // No cache: every request is a fetch, and only the budget holds them back.
        let (rate, burst, wanted) = (10.0, 2.0, 20)
        guard let fleet = try ServeFleet.start(instances: 4, coinbase: #""cacheSeconds": 0, "requestsPerSecond": 10, "burst": 2"#) else { return }
        defer { fleet.stop() }
        let (upstream, servers) = (fleet.upstream, fleet.servers)
        let assets = Array(ServeFleet.prices.keys)
        let start = ContinuousClock.now
        let ports = servers.map(\.port)
        let stopping = LockedBox(false)
        // 16 clients, 4 per instance, each asking again as soon as it is answered, until the upstream has seen
        // `wanted` requests (waited for, at most 30 s, rather than a fixed window).
        let finished = DispatchGroup()
        for client in 0..<16 {
            finished.enter()
            Thread.detachNewThread {
                defer { finished.leave() }
                for request in 0..<10_000 where !stopping.get() {
                    guard let connection = try? LoopbackHTTPConnection(port: ports[client % 4], timeout: 5) else { return }
                    _ = try? connection.get("/v1/prices?asset=\(assets[(client + request) % assets.count])")
                }
            }
        }
        var reached = false
        for _ in 0..<3_000 where !reached {
            reached = upstream.arrivalTimes.count >= wanted
            if !reached { usleep(10_000) }
        }
        let arrivals = upstream.arrivalTimes.sorted()
        stopping.set(true)
        servers.forEach { $0.process.send(SIGKILL) }
        #expect(finished.wait(timeout: .now() + 10) == .success)
        // Requests flowed, well past one instance's burst: 16 clients asking without pause.
        #expect(reached, "the upstream saw only \(arrivals.count) requests in 30 s")
        // The budget's bound at each request: the burst, then the rate, since the clients started
        // (Redis's clock counts whole milliseconds: 2 ms of slack).
        for (index, arrival) in arrivals.enumerated() {
            let (seconds, attoseconds) = start.duration(to: arrival).components
            let allowed = burst + rate * (Double(seconds) + Double(attoseconds) / 1e18 + 0.002)
            #expect(Double(index + 1) <= allowed, "request \(index + 1) reached the upstream \(start.duration(to: arrival)) after the start, from 4 instances")
        }
    }
}

/// The fleet when things go wrong: a lock holder that died, a Redis that hangs, a wrong password.
@Suite(.serialized, .offThePool, .timeLimit(.minutes(3)))
struct ServeFleetFailureTests {
    @Test func whenTheLockHolderDiedAnotherInstanceFetchesOnceTheLockExpires() throws {
        guard let fleet = try ServeFleet.start() else { return }
        defer { fleet.stop() }
        let (redis, upstream, server) = (fleet.redis, fleet.upstream, fleet.server)
        // As a holder leaves it when it is killed mid-fetch: its lock, no value.
        try redis.cli(["SET", "pricehost:lock:coinbase:BTC-USD", "12345-dead", "PX", "2500"])
        let started = Date()
        let reply = try server.get("/v1/prices?asset=BTC")
        let waited = Date().timeIntervalSince(started)
        #expect(reply.status == 200 && reply.body.contains(#""amount":"91234.56""#), "\(reply)")
        #expect(waited >= 1.0 && waited < 10, "answered after \(waited) s; the lock had 2.5 s to live")
        #expect(upstream.requestCount(path: "/v2/prices/BTC-USD/spot") == 1)
        let metrics = try server.get("/metrics").body
        #expect(ServeFleet.sample(metrics, #"pricehost_shared_waits_total{provider="coinbase"}"#) == 1, "\(metrics)")
    }

    @Test func aRedisThatHangsCostsOneTimeoutThenTheInstanceWorksAloneUntilItAnswersAgain() throws {
        guard let fleet = try ServeFleet.start(shared: #", "commandTimeoutSeconds": 0.3, "connectTimeoutSeconds": 0.3"#) else { return }
        defer { fleet.stop() }
        let (redis, server) = (fleet.redis, fleet.server)
        redis.pause()
        defer { redis.resume() }
        let connection = try server.connect()
        for asset in ["BTC", "ETH", "SOL"] {
            let started = Date()
            let reply = try connection.get("/v1/prices?asset=\(asset)")
            #expect(reply.status == 200, "\(reply)")
            // Hung for good, Redis would hold the request until the client gave up (20 s).
            #expect(Date().timeIntervalSince(started) < 10, "\(asset) took \(Date().timeIntervalSince(started)) s with redis hung")
        }
        #expect(try server.get("/readyz").body.contains(#""status":"degraded""#))
        redis.resume()
        // Backoff: 0.1 s doubling, at most 5 s; bounded at 15 s.
        var back = false
        for _ in 0..<150 {
            back = try server.get("/readyz").body.contains(#""status":"ready""#)
            if back { break }
            usleep(100_000)
        }
        #expect(back, "\((try? server.get("/readyz").body) ?? "")")
        // Ready is set a moment before the line is written: wait for it, not for luck.
        #expect(server.process.waitForErrorLine(containing: "is reachable again", within: 10) != nil, "\(server.process.standardError)")
        #expect(try connection.get("/v1/prices?asset=ADA").status == 200)
        #expect(try redis.cli(["EXISTS", "pricehost:quote:coinbase:ADA-USD"]) == "1")
    }

    @Test func aConnectionRedisClosedIsReopenedWithoutAnOutage() throws {
        guard let fleet = try ServeFleet.start() else { return }
        defer { fleet.stop() }
        let (redis, server) = (fleet.redis, fleet.server)
        // As a restart or an idle timeout does: Redis drops the instance's connection.
        #expect(try redis.cli(["CLIENT", "KILL", "TYPE", "normal"]) == "1")
        #expect(try server.get("/v1/prices?asset=BTC").status == 200)
        #expect(try redis.cli(["EXISTS", "pricehost:quote:coinbase:BTC-USD"]) == "1")
        #expect(!server.process.standardError.contains("unavailable"), "\(server.process.standardError)")
        let metrics = try server.get("/metrics").body
        #expect(metrics.contains("\npricehost_redis_up 1\n") && ServeFleet.sample(metrics, "pricehost_redis_errors_total") == 0, "\(metrics)")
    }

    @Test func aWrongPasswordIsOneWarningAndTheInstanceServesAlone() throws {
        guard RedisServer.installed != nil else {
            print("ServeFleetFailureTests: \(RedisServer.missingReason)")
            return
        }
        let redis = try RedisServer(arguments: ["--requirepass", "right"])
        let upstream = try ServeFleet.upstream()
        defer { upstream.stop() }
        let sandbox = try Sandbox(config: """
            {"plugins": ["libCoinbaseProvider.so"],
             "providers": {"coinbase": {"baseURL": "\(upstream.baseURL)", "maxAttempts": 1, "cacheSeconds": 60}},
             "shared": {"redis": "redis://:${REDIS_PASSWORD}@127.0.0.1:\(redis.port)/0"}}
            """)
        defer { sandbox.remove() }
        let wrong = try ServeProcess(sandbox, environment: ["PRICEHOST_LOG": "warning", "REDIS_PASSWORD": "wrong"])
        defer { wrong.stop() }
        #expect(try wrong.get("/v1/prices?asset=BTC&provider=coinbase").status == 200)
        #expect(wrong.process.waitForErrorLine(containing: "redis refused AUTH: WRONGPASS", within: 10) != nil, "\(wrong.process.standardError)")
        #expect(!wrong.process.standardError.contains("wrong\n") && !wrong.process.standardError.contains(":wrong@"))
        let right = try ServeProcess(sandbox, environment: ["PRICEHOST_LOG": "warning", "REDIS_PASSWORD": "right"])
        defer { right.stop() }
        try ServeFleet.waitUntilShared(right)
        // Without the variable, serve refuses to start: exit 3, naming it.
        let unset = try sandbox.run(["serve", "--listen", "127.0.0.1:0"])
        #expect(unset.status == 3)
        #expect(unset.errorLines == ["pricehost: error: \(sandbox.configPath): shared.redis: environment variable REDIS_PASSWORD is not set"], "\(unset)")
    }

    @Test func aReloadThatNamesAnotherRedisMovesTheInstanceThere() throws {
        // The access log on: the reload's info line is what the test waits for.
        guard let fleet = try ServeFleet.start(environment: [:]) else { return }
        defer { fleet.stop() }
        let (first, sandbox, server) = (fleet.redis, fleet.sandbox, fleet.server)
        let second = try RedisServer()
        #expect(try server.get("/v1/prices?asset=BTC").status == 200)
        #expect(try first.cli(["EXISTS", "pricehost:quote:coinbase:BTC-USD"]) == "1")
        let config = try String(contentsOfFile: sandbox.configPath, encoding: .utf8)
        try config.replacingOccurrences(of: first.url, with: second.url).write(toFile: sandbox.configPath, atomically: true, encoding: .utf8)
        server.process.send(SIGHUP)
        #expect(server.process.waitForErrorLine(containing: "pricehost: info: reloaded ") != nil, "\(server.process.standardError)")
        try ServeFleet.waitUntilShared(server)
        #expect(try server.get("/readyz").body.contains("redis 127.0.0.1:\(second.port): connected"))
        #expect(try server.get("/v1/prices?asset=ETH").status == 200)
        #expect(try second.cli(["EXISTS", "pricehost:quote:coinbase:ETH-USD"]) == "1")
        #expect(try first.cli(["EXISTS", "pricehost:quote:coinbase:ETH-USD"]) == "0")
    }

    @Test func theExpositionWithAFleetPassesARealParser() throws {
        guard let fleet = try ServeFleet.start(coinbase: #""cacheSeconds": 60, "requestsPerSecond": 50"#) else { return }
        defer { fleet.stop() }
        let server = fleet.server
        #expect(try server.get("/v1/prices?asset=BTC").status == 200)
        let text = try server.get("/metrics").body
        for line in [#"pricehost_shared_cache_misses_total{provider="coinbase"} 1"#, "pricehost_redis_up 1", "pricehost_redis_errors_total 0",
                     "# TYPE pricehost_redis_command_duration_seconds histogram", "# TYPE pricehost_shared_waits_total counter"] {
            #expect(text.split(separator: "\n").contains(Substring(line)), "missing \(line) in:\n\(text)")
        }
        #expect(ServeFleet.sample(text, "pricehost_redis_command_duration_seconds_count") >= 2)
        try ServeMetricsTests.expectAParserAccepts(text, suite: "ServeFleetFailureTests")
    }
}
