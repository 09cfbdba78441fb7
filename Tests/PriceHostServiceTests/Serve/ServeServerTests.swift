import Foundation
import Glibc
import PriceHostCore
import PriceHostTesting
import PriceHostTestTraits
@testable import PriceHostService
import Testing

/// The event-driven transport in process: an answer made later holds up nothing else, pipelined answers keep their order, a large answer to a slow
/// reader is finished as the socket takes it.
@Suite(.offThePool, .timeLimit(.minutes(1)))
struct ServeServerTests {
    /// A started server on a free port with `settings`, answering with `handler`.
    static func started(_ settings: ServeSettings = ServeSettings(), clock: any PriceClock = SystemClock(),
                        handler: @escaping ServeServer.Handler) throws -> ServeServer {
        let server = try ServeServer(address: try #require(ListenAddress("127.0.0.1:0")), limits: .init(settings), clock: clock)
        let running = server.start(handler: handler, finished: { _, _, _, _ in }, taskExecutor: laterAnswers)
        try #require(running)
        return server
    }

    /// Where the servers' later answers are made: on a thread of their own, as the cooperative pool may be
    /// held by other tests, and Dispatch's threads by tests (these among them) that wait for such answers.
    static let laterAnswers = OwnThreadExecutor()

    /// `text` as a 200, now.
    static func text(_ text: String) -> ServeReply { .response(.text(200, text), route: "test") }

    /// Waits, at most `seconds`, for `condition`; whether it held.
    static func eventually(within seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(2_000)
        }
        return condition()
    }

    /// A switch the test turns on, which `.later` work waits for (at most 20 s).
    final class Gate: Sendable {
        private let open = LockedBox(false)
        func release() { open.set(true) }
        var isOpen: Bool { open.get() }
        func wait() async {
            for _ in 0..<4_000 where !open.get() { try? await Task.sleep(for: .milliseconds(5)) }
        }
    }

    /// Two connections on one loop (connections go to the loops in turn: the first and the one a loop
    /// count later share one); the first sends `first`, then the other asks 20 times, answered `answer` each time.
    static func neighbours(_ server: ServeServer, first: String, answer: String) throws -> (LoopbackHTTPConnection, LoopbackHTTPConnection) {
        let connections = try (0...ServeServer.loopCount).map { _ in try LoopbackHTTPConnection(port: server.address.port) }
        try connections[0].send(first)
        for _ in 0..<20 {
            #expect(try connections[ServeServer.loopCount].get("/other").body == answer)
        }
        return (connections[0], connections[ServeServer.loopCount])
    }

    @Test func anAnswerThatComesLaterHoldsUpNoOtherConnectionOnItsLoop() throws {
        let gate = Gate()
        let server = try Self.started { request in
            guard request.path == "/slow" else { return Self.text("fast") }
            return .later {
                await gate.wait()
                return .response(.text(200, "slow"), route: "test")
            }
        }
        defer { _ = server.drain(within: .seconds(5)) }
        let (slow, _) = try Self.neighbours(server, first: "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n", answer: "fast")
        #expect(slow.unreadText.isEmpty)
        #expect(!gate.isOpen)
        gate.release()
        #expect(try slow.readReply().body == "slow")
    }

    @Test func pipelinedRequestsAreAnsweredInOrderWhenTheFirstIsSlowAndTheSecondFast() throws {
        let fastAnswered = LockedBox(false)
        let server = try Self.started { request in
            switch request.path {
            case "/slow":
                // Made only once the second one's answer has been made: written first all the same.
                return .later {
                    for _ in 0..<4_000 where !fastAnswered.get() { try? await Task.sleep(for: .milliseconds(5)) }
                    return .response(.text(200, "slow, after fast: \(fastAnswered.get())"), route: "test")
                }
            default:
                fastAnswered.set(true)
                return Self.text("fast")
            }
        }
        defer { _ = server.drain(within: .seconds(5)) }
        let connection = try LoopbackHTTPConnection(port: server.address.port)
        try connection.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\n\r\nGET /third HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try connection.readReply().body == "slow, after fast: true")
        #expect(try connection.readReply().body == "fast")
        #expect(try connection.readReply().body == "fast")
    }

    @Test func aLargeAnswerToAClientThatReadsSlowlyIsWrittenWholeWhileOthersAreServed() throws {
        // 24 MB, more than both sockets' buffers take (at most 4 MB and 6 MB by default): most of it waits for EPOLLOUT.
        let body = (0..<24).map { String(repeating: String(UnicodeScalar(UInt8(ascii: "a") + UInt8($0))), count: 1_000_000) }.joined()
        let server = try Self.started { request in
            request.path == "/big" ? .response(.text(200, body), route: "test") : Self.text("small")
        }
        defer { _ = server.drain(within: .seconds(5)) }
        // Nothing of it read yet: its loop has written what the socket took, and serves the neighbour.
        let (reader, _) = try Self.neighbours(server, first: "GET /big HTTP/1.1\r\nHost: x\r\n\r\n", answer: "small")
        reader.timeout = 30
        let reply = try reader.readReply()
        #expect(reply.body.utf8.count == body.utf8.count)
        #expect(reply.body == body)
        // The connection is still good for the next request.
        #expect(try reader.get("/after").body == "small")
    }
}
