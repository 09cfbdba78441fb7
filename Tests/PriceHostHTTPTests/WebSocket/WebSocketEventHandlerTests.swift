import ConcurrencyHelpers
import Glibc
@testable import PriceHostHTTP
import PriceHostTestTraits
import PriceHostTesting
import Testing

/// A connection whose events go to a ``WebSocketEventHandler`` on its own thread (what a
/// feed's reader is), against Python's `websockets` echoing what it is sent.
@Suite(.offThePool, .timeLimit(.minutes(2)))
struct WebSocketEventHandlerTests {
    /// Records what it is handed, and on which thread; answers `hello` with two replies.
    final class Recorder: WebSocketEventHandler {
        struct Log {
            var events: [WebSocketEvent] = []
            var threads: Set<UInt> = []
            var endings = 0
            /// Events that came after `ended()`.
            var late = 0
        }

        let log = Lock(Log())

        func received(_ event: WebSocketEvent) -> [String] {
            log.withLock { log in
                log.events.append(event)
                log.threads.insert(UInt(pthread_self()))
                if log.endings > 0 { log.late += 1 }
            }
            return event == .text("hello") ? ["reply to hello", "close 4000 bye"] : []
        }

        func ended() {
            log.withLock { log in
                log.endings += 1
                log.threads.insert(UInt(pthread_self()))
            }
        }

        var snapshot: Log { log.withLock { $0 } }
    }

    @Test func theHandlerGetsEveryEventInOrderOnOneThreadAndItsRepliesGoOut() async throws {
        guard await WebSocketFixtureServer.available(for: #function) else { return }
        let server = try await WebSocketFixtureServer.start(["echo"])
        defer { server.stop() }
        let recorder = Recorder()
        let connection = try await WebSocketConnection.connect(to: server.url(), options: WebSocketConnectionTests.quick, handler: recorder)
        // 3,000 messages: past the read-ahead (1,024), which would stop a connection whose events nobody takes.
        try await connection.send(text: "flood 3000 10")
        #expect(try await server.line(startingWith: "FLOOD-DONE") == "FLOOD-DONE")
        // Echoed, answered by the handler with two replies: the first echoed back, the second closing with 4000.
        try await connection.send(text: "hello")
        #expect(await WebSocketFeedsTests.eventually { recorder.snapshot.endings > 0 })

        let log = recorder.snapshot
        let flood = (0..<3_000).map { WebSocketEvent.text("\($0):" + String(repeating: "x", count: 10)) }
        #expect(log.events == flood + [.text("hello"), .text("reply to hello"), .closed(code: WebSocketCloseCode(rawValue: 4000), reason: "bye")])
        #expect(log.endings == 1)
        #expect(log.late == 0)
        #expect(log.threads.count == 1, "the events came on \(log.threads.count) threads")
        // The events were the handler's: the stream has none, and is finished.
        var events = connection.events.makeAsyncIterator()
        #expect(await events.next() == nil)
        // The server logs the code of our answer to its close (which echoes the code, not the reason).
        #expect(try await server.line(startingWith: "CLOSED") == "CLOSED 4000 ")
    }

    @Test func aClosedConnectionEndsOnceAndRefusesSends() async throws {
        guard await WebSocketFixtureServer.available(for: #function) else { return }
        let server = try await WebSocketFixtureServer.start(["echo"])
        defer { server.stop() }
        let recorder = Recorder()
        let connection = try await WebSocketConnection.connect(to: server.url(), options: WebSocketConnectionTests.quick, handler: recorder)
        await connection.close()
        // The close returns once the connection has ended: the handler has heard it by then.
        let log = recorder.snapshot
        #expect(log.events == [.closed(code: .normalClosure, reason: "")])
        #expect(log.endings == 1)
        await #expect(throws: WebSocketError.self) { try await connection.send(text: "too late") }
    }
}
