import Foundation
import Glibc
import PriceHostTesting
@testable import PriceHostService
import Testing

/// A client that reads more slowly than its stream: bounded, cut off after 10 s behind with
/// a final `event: error`, and no other client of the same topics slowed by it. In process,
/// with events made instantly, so the stream always outruns the slow reader, however busy
/// the machine is.
struct StreamSlowClientTests {
    /// A connected pair of stream sockets: the server's end, and the client's with a tiny receive buffer.
    static func socketPair() throws -> (server: Int32, client: Int32) {
        var ends: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        var size: Int32 = 2048
        setsockopt(ends[1], SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(ends[1], SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return (ends[0], ends[1])
    }

    /// Reads `descriptor` until the other end closes or `seconds` pass, `chunk` bytes at a time with `pause` between reads.
    static func read(_ descriptor: Int32, chunk: Int, pause: useconds_t, seconds: Double) -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: chunk)
        let started = Date()
        while Date().timeIntervalSince(started) < seconds {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count < 0, errno == EAGAIN || errno == EINTR { continue }
            guard count > 0 else { break }
            received += buffer[..<count]
            if pause > 0 { usleep(pause) }
        }
        return String(decoding: received, as: UTF8.self)
    }

    @Test func aClientThatStaysBehindIsCutOffWithAFinalErrorAndSlowsNobody() async throws {
        // Ten topics of 4 KB events ten times a second: about 400 KB/s.
        let payload = String(repeating: "x", count: 4000)
        // The tickers on a queue of their own: the cooperative pool may be busy with other tests.
        let hub = StreamHub(tickerExecutor: SerialQueueExecutor(label: "StreamSlowClientTests.tickers"), source: ClosureSource { topic in
            "data: {\"asset\":\"\(topic.asset)\",\"filler\":\"\(payload)\"}\n\n"
        })
        defer { hub.stop() }
        let server = try ServeServer(address: try #require(ListenAddress("127.0.0.1:0")), limits: .init(ServeSettings()))
        // Never started: the stream only needs its limits, its writers and whether it is stopping.
        let topics = (1...10).map { StreamHub.TopicKey(asset: "A\($0)", currency: "USD", providers: nil, intervalMilliseconds: 100) }
        let plan = StreamPlan(topics: topics, lastEventID: nil, hub: hub, metrics: ServeMetrics())
        // Each descriptor has one owner, which alone closes it: the server's ends belong to the
        // stream writers once handed over; the slow client's to its reading thread; the fast
        // client's to the read below. (A second close, at the test's end, once hit a number that
        // another test in this process had been given meanwhile, and that test's socket died.)
        let slow = try Self.socketPair(), fast = try Self.socketPair()

        for descriptor in [slow.server, fast.server] {
            let handedOver = server.startStream(on: descriptor, source: plan)
            #expect(handedOver)
            if !handedOver { close(descriptor) }
        }
        // The slow client reads 1 KB every 100 ms (10 KB/s); the fast one all it can, for 12 s.
        let slowText = LockedBox<String?>(nil)
        Thread.detachNewThread {
            let text = Self.read(slow.client, chunk: 1024, pause: 100_000, seconds: 40)
            close(slow.client)
            slowText.set(text)
        }
        let fastText = try await offThePool {
            defer { close(fast.client) }
            return Self.read(fast.client, chunk: 65_536, pause: 0, seconds: 12)
        }

        let fastEvents = fastText.components(separatedBy: "\n\n").filter { $0.contains("data: ") }.count
        // A tenth of what was made in 12 s would still be far more than a slowed client gets.
        #expect(fastEvents >= 100, "the fast client got \(fastEvents) events in 12 s")
        // At most 40 s of reading and 30 s of waiting beyond it.
        let text: String = try await offThePool {
            for _ in 0..<700 {
                if let text = slowText.get() { return text }
                usleep(100_000)
            }
            return slowText.get() ?? ""
        }
        #expect(text.hasSuffix(StreamPlan.tooFarBehind), "the slow client's stream ended with: \(text.suffix(200))")
        // What it got is whole events, then the last word: nothing half written.
        let events = text.components(separatedBy: "\n\n").dropLast()
        #expect(events.dropLast().allSatisfy { $0.contains("\"filler\":\"\(payload)\"}") || $0.hasPrefix("HTTP/1.1") }, "a half-written event")
    }
}
