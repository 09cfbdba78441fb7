import Foundation
import Glibc
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// How `serve` holds connections: many at once on a few threads (its event loops), each kept alive.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct ServeConnectionsTests {
    /// The threads of process `pid` (its `/proc/PID/task` entries).
    static func threadCount(_ pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? 0
    }

    @Test func twoHundredKeepAliveConnectionsAreServedByAFewThreads() throws {
        let sandbox = try ServeTests.fileSandbox(serve: #"{"maxConnections": 512}"#)
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        #expect(try server.get("/healthz").status == 200)
        let before = Self.threadCount(server.process.pid)
        var connections: [LoopbackHTTPConnection] = []
        for index in 0..<200 {
            let connection = try server.connect()
            #expect(try connection.get("/v1/prices?asset=BTC").status == 200, "connection \(index)")
            connections.append(connection)
        }
        let during = Self.threadCount(server.process.pid)
        // Each is still open and served again: keep-alive.
        for (index, connection) in connections.enumerated() where index % 20 == 0 {
            #expect(try connection.get("/healthz").status == 200)
        }
        let metrics = try server.get("/metrics").body
        let open = metrics.split(separator: "\n").first { $0.hasPrefix("pricehost_open_connections ") }.flatMap { Int($0.split(separator: " ")[1]) }
        // The 200, and the one that asks.
        #expect(open == 201, "\(metrics)")
        // A thread per connection would add 200; the loops and the pool were there before.
        #expect(during - before < 20, "\(before) threads, then \(during) with 200 connections open")
    }
}
