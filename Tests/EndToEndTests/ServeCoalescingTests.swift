import Foundation
import Glibc
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// Many requests for one pair share one upstream fetch.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct ServeCoalescingTests {
    static func coinbaseSandbox(_ upstream: LoopbackHTTPServer, cacheSeconds: Int = 0) throws -> Sandbox {
        try Sandbox(config: """
            {"plugins": ["libCoinbaseProvider.so"],
             "providers": {"coinbase": {"baseURL": "\(upstream.baseURL)", "cacheSeconds": \(cacheSeconds), "maxAttempts": 1}},
             "defaults": {"provider": "coinbase"}}
            """)
    }

    @Test func twoHundredClientsAskingForBTCAtOnceCauseOneUpstreamRequest() throws {
        // The upstream answers only once every other request has joined the fetch in flight
        // (or after 30 s), however slow the machine; no cache, so only coalescing can share it.
        let gate = DispatchSemaphore(value: 0)
        let upstream = try LoopbackHTTPServer { _, _ in
            _ = gate.wait(timeout: .now() + 30)
            return .init(body: CoinbaseTests.spot("BTC", "USD", "91234.56"))
        }
        defer { upstream.stop() }
        let sandbox = try Self.coinbaseSandbox(upstream)
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox, environment: ["PRICEHOST_LOG": "warning"])
        defer { server.stop() }
        let clients = try (0..<200).map { _ in try server.connect(timeout: 60) }
        for client in clients { try client.send("GET /v1/prices?asset=BTC HTTP/1.1\r\nHost: x\r\n\r\n") }
        let joined = "\npricehost_coalesced_requests_total{provider=\"coinbase\"} 199\n"
        var allJoined = false
        for _ in 0..<300 where !allJoined {
            allJoined = try server.get("/metrics").body.contains(joined)
            if !allJoined { usleep(100_000) }
        }
        gate.signal()
        #expect(allJoined, "the 199 other requests did not all join the fetch in flight within 30 s")
        let replies = try clients.map { try $0.readReply() }
        #expect(replies.allSatisfy { $0.status == 200 })
        #expect(Set(replies.map { withoutAges($0.body) }).count == 1)
        #expect(replies.first?.body.hasPrefix(#"[{"asset":"BTC","currency":"USD","amount":"91234.56","provider":"coinbase","#) == true, "\(replies.first.map(String.init(describing:)) ?? "")")
        #expect(upstream.requestCount(path: "/v2/prices/BTC-USD/spot") == 1)
        let metrics = try server.get("/metrics").body
        #expect(metrics.contains(joined), "\(metrics)")
        #expect(metrics.contains("\npricehost_upstream_fetches_total{provider=\"coinbase\",outcome=\"success\"} 1\n"))
    }

    @Test func cacheSecondsKeepsAnswersBetweenRequests() throws {
        let upstream = try LoopbackHTTPServer { _, _ in .init(body: CoinbaseTests.spot("ETH", "USD", "3120.48")) }
        defer { upstream.stop() }
        let sandbox = try Self.coinbaseSandbox(upstream, cacheSeconds: 600)
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let connection = try server.connect()
        for _ in 0..<5 { #expect(try connection.get("/v1/prices?asset=ETH").status == 200) }
        #expect(upstream.requestCount(path: "/v2/prices/ETH-USD/spot") == 1)
        let metrics = try server.get("/metrics").body
        #expect(metrics.contains("\npricehost_cache_hits_total{provider=\"coinbase\"} 4\n"), "\(metrics)")
        #expect(metrics.contains("\npricehost_cache_misses_total{provider=\"coinbase\"} 1\n"))
    }
}
