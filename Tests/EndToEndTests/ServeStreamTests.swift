import Foundation
import Glibc
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// `GET /v1/stream`: Server-Sent Events.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct ServeStreamTests {
    /// An event's `id:` (its first line) and the rest of it.
    static func event(_ text: String) -> (id: String?, rest: String) {
        guard text.hasPrefix("id: "), let newline = text.firstIndex(of: "\n") else { return (nil, text) }
        return (String(text[text.index(text.startIndex, offsetBy: 4)..<newline]), String(text[text.index(after: newline)...]))
    }

    /// The whole events in `text` (after the head, if any), each with its id.
    static func events(_ text: String) -> [(id: String?, rest: String)] {
        let body = text.contains("\r\n\r\n") ? split(text).1 : text
        return body.components(separatedBy: "\n\n").dropLast().filter { !$0.isEmpty && !$0.hasPrefix(":") }.map(event)
    }

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
        let withIDs = body.components(separatedBy: "\n\n").dropLast().filter { !$0.isEmpty }
        #expect(withIDs.count >= 6, "\(text)")
        // Every event has an id, each new: the first line, `id: EPOCH-N`.
        let ids = withIDs.map { Self.event($0).id }
        #expect(ids.allSatisfy { $0 != nil }, "\(withIDs)")
        #expect(Set(ids).count == ids.count, "\(ids)")
        let events = withIDs.map { Self.event($0).rest }
        let quotes = events.filter { $0.hasPrefix("data: ") }
        let errors = events.filter { $0.hasPrefix("event: error\ndata: ") }
        #expect(quotes.count + errors.count == events.count, "\(events)")
        #expect(quotes.allSatisfy { withoutAges($0) == "data: \(ServeTests.btc)" }, "\(quotes)")
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
        #expect(withoutAges(text).contains("data: \(ServeTests.btc)\n\n"), "\(text)")
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
        // That no ticker is left, so the upstream is asked no more, StreamHubTests shows on a test clock
        // (here it took two and a half intervals of sleep).
    }

    /// A client that drops and reconnects with `Last-Event-ID` gets exactly the events it
    /// missed (the ids and bodies another client saw meanwhile), then live ones.
    @Test func aReconnectWithLastEventIDGetsWhatItMissed() throws {
        let sandbox = try ServeTests.fileSandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        // A keeps the topic alive and sees every event.
        let watcher = try server.connect()
        try watcher.send("GET /v1/stream?asset=BTC&interval=0.1 HTTP/1.1\r\nHost: x\r\n\r\n")
        var seen = Self.events(try watcher.read(until: "}\n\n", count: 1))
        // B reads one event and leaves (its connection closes as it goes out of scope).
        let last: String = try {
            let leaving = try server.connect()
            try leaving.send("GET /v1/stream?asset=BTC&interval=0.1 HTTP/1.1\r\nHost: x\r\n\r\n")
            return try #require(Self.events(try leaving.read(until: "}\n\n", count: 1)).last?.id)
        }()
        // Meanwhile A sees at least three more events after B's last one.
        for _ in 0..<50 {
            let ids = seen.compactMap(\.id)
            if let index = ids.firstIndex(of: last), ids.count - index > 3 { break }
            seen += Self.events(try watcher.read(until: "}\n\n", count: 1))
        }
        let ids = seen.compactMap(\.id)
        let index = try #require(ids.firstIndex(of: last), "A never saw B's last event \(last): \(ids)")
        let missed = Array(seen[(index + 1)...])
        #expect(missed.count >= 3)
        // B comes back: the missed events first, in order, with their ids; nothing before them.
        let back = try server.connect()
        try back.send("GET /v1/stream?asset=BTC&interval=0.1 HTTP/1.1\r\nHost: x\r\nLast-Event-ID: \(last)\r\n\r\n")
        let resumed = Self.events(try back.read(until: "}\n\n", count: missed.count + 1))
        #expect(resumed.count >= missed.count + 1)
        for (got, expected) in zip(resumed, missed) {
            #expect(got.id == expected.id && got.rest == expected.rest, "got \(got), expected \(expected)")
        }
    }

    /// An id this server never gave (another process, garbage) is no resume: the latest event, then live.
    @Test func anUnknownLastEventIDGetsTheLatestEvent() throws {
        let sandbox = try ServeTests.fileSandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        // One tick an hour: the first client's event stays the latest while the others come.
        let first = try server.connect()
        try first.send("GET /v1/stream?asset=BTC&interval=3600 HTTP/1.1\r\nHost: x\r\n\r\n")
        let latest = try #require(Self.events(try first.read(until: "}\n\n", count: 1)).first)
        for id in ["1-1", "not an id", "99999999999999999999999-1", ""] {
            let client = try server.connect()
            try client.send("GET /v1/stream?asset=BTC&interval=3600 HTTP/1.1\r\nHost: x\r\nLast-Event-ID: \(id)\r\n\r\n")
            let events = Self.events(try client.read(until: "}\n\n", count: 1))
            #expect(events.count == 1 && events.first?.id == latest.id && events.first.map { withoutAges($0.rest) } == "data: \(ServeTests.btc)",
                    "\(id): \(events)")
        }
    }
}
