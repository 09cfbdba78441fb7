import Foundation
import Glibc
import PriceHostTesting
import Testing

/// `GET /v1/stream`: Server-Sent Events.
@Suite(.timeLimit(.minutes(2)))
struct ServeStreamTests {
    static func split(_ text: String) -> (String, String) {
        guard let range = text.range(of: "\r\n\r\n") else { return (text, "") }
        return (String(text[..<range.upperBound]), String(text[range.upperBound...]))
    }

    @Test func eachTickIsADataLinePerQuoteAndAFailureIsAnErrorEvent() throws {
        let sandbox = try ServeTests.fileSandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let connection = try server.connect()
        try connection.send("GET /v1/stream?asset=BTC,DOGE&interval=0.2 HTTP/1.1\r\nHost: x\r\n\r\n")
        let text = try connection.read(until: "\n\n", count: 7)
        let (head, body) = Self.split(text)
        #expect(head.contains("Content-Type: text/event-stream\r\n"))
        #expect(head.contains("Cache-Control: no-cache\r\n"))
        // Whole events only: what follows the last blank line may be half an event.
        let events = body.components(separatedBy: "\n\n").dropLast().filter { !$0.isEmpty }
        #expect(events.count >= 6, "\(text)")
        let quotes = events.filter { $0.hasPrefix("data: ") }
        let errors = events.filter { $0.hasPrefix("event: error\ndata: ") }
        #expect(quotes.count + errors.count == events.count, "\(events)")
        #expect(quotes.allSatisfy { $0 == "data: \(ServeTests.btc)" }, "\(quotes)")
        #expect(errors.allSatisfy { $0.hasPrefix(#"event: error\#ndata: {"asset":"DOGE","currency":"USD","error":"file: no price for DOGE-USD"#) }, "\(errors)")
        #expect(quotes.count >= 2 && errors.count >= 2)
    }

    @Test func aQuietStreamGetsAHeartbeatComment() throws {
        let sandbox = try ServeTests.fileSandbox(serve: #"{"heartbeatSeconds": 0.3}"#)
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let connection = try server.connect()
        try connection.send("GET /v1/stream?asset=BTC&interval=3600 HTTP/1.1\r\nHost: x\r\n\r\n")
        let text = try connection.read(until: ": heartbeat\n\n", count: 2)
        #expect(text.contains("data: \(ServeTests.btc)\n\n"), "\(text)")
    }

    @Test func clientsOfOneAssetShareOneFetchPerTickAndLeavingFreesIt() throws {
        let upstream = try LoopbackHTTPServer { _, _ in .init(body: CoinbaseTests.spot("BTC", "USD", "100")) }
        defer { upstream.stop() }
        let sandbox = try ServeCoalescingTests.coinbaseSandbox(upstream)
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let interval = 1.0
        var clients: [LoopbackHTTPConnection] = []
        for _ in 0..<5 {
            let client = try server.connect()
            try client.send("GET /v1/stream?asset=BTC&interval=\(interval) HTTP/1.1\r\nHost: x\r\n\r\n")
            clients.append(client)
        }
        // Each client sees two events: the tick it joined on (or the one that started) and the next.
        var delivered: [String] = []
        for client in clients {
            // Two whole events: each ends with its JSON object and a blank line.
            let text = try client.read(until: "}\n\n", count: 2)
            // By bytes: "\r\n" after the head is one Character, which a split at "\n" would not cut.
            delivered += text.utf8.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }.filter { $0.hasPrefix("data: ") }
        }
        let fetched = upstream.requestCount(path: "/v2/prices/BTC-USD/spot")
        // Each fetch stamps its quote with its own time, so distinct events are distinct fetches. Shared,
        // ten deliveries come from a few ticks' fetches; one ticker per client would make about ten.
        let distinct = Set(delivered)
        #expect(delivered.count >= 10, "\(delivered)")
        #expect(distinct.count <= 5, "\(distinct.count) distinct events among \(delivered.count): \(distinct.sorted())")
        #expect(fetched <= distinct.count + 1, "\(fetched) upstream requests for \(distinct.count) distinct events")
        #expect(try server.get("/metrics").body.contains("\npricehost_sse_clients 5\n"))
        clients.removeAll()
        var freed = false
        for _ in 0..<50 where !freed {
            usleep(100_000)
            freed = try server.get("/metrics").body.contains("\npricehost_sse_clients 0\n")
        }
        #expect(freed)
        // No ticker is left: the upstream is asked no more.
        let afterLeaving = upstream.requestCount(path: "/v2/prices/BTC-USD/spot")
        usleep(useconds_t(interval * 2_500_000))
        #expect(upstream.requestCount(path: "/v2/prices/BTC-USD/spot") == afterLeaving)
    }
}
