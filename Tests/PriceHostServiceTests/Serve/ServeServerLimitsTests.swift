import Foundation
import Glibc
import PriceHostCore
import PriceHostTesting
import PriceHostTestTraits
@testable import PriceHostService
import Testing

/// The transport's limits on the event loops: slow heads, idle connections, sizes, the
/// connection bound, and the drain.
@Suite(.offThePool, .timeLimit(.minutes(1)))
struct ServeServerLimitsTests {
    typealias Support = ServeServerTests

    @Test func slowHeaderClientsAreCutOffWith408AndAWellBehavedOneIsServedMeanwhile() throws {
        var settings = ServeSettings()
        settings.headerTimeoutMilliseconds = 300
        let server = try Support.started(settings) { _ in Support.text("ok") }
        defer { _ = server.drain(within: .seconds(5)) }
        let slow = try (0..<100).map { _ in try LoopbackHTTPConnection(port: server.address.port) }
        for connection in slow { try connection.send("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: a") }
        let polite = try LoopbackHTTPConnection(port: server.address.port)
        for _ in 0..<50 {
            #expect(try polite.get("/").body == "ok")
        }
        for connection in slow {
            connection.timeout = 5
            let answer = try connection.readReply()
            #expect(answer.status == 408, "\(answer)")
            #expect(answer.headers["connection"] == "close")
            #expect(connection.isClosedByServer(within: 5))
        }
        // The polite one was never cut off: its requests each arrived whole.
        #expect(try polite.get("/").body == "ok")
    }

    @Test func anIdleConnectionIsClosedQuietlyAfterTheIdleTimeout() throws {
        var settings = ServeSettings()
        // A minute, on a clock the test moves: on the machine's clock, a client held up between its connect and
        // its request (under TSan, on a loaded machine) was closed as idle first, and read a reset. Only the
        // test's clock can make a minute pass within the waits below.
        settings.idleTimeoutMilliseconds = 60_000
        let clock = TestClock()
        let server = try Support.started(settings, clock: clock) { _ in Support.text("ok") }
        defer { _ = server.drain(within: .seconds(5)) }
        let idle = try LoopbackHTTPConnection(port: server.address.port)
        #expect(try idle.get("/").body == "ok")
        // Short of the timeout it stays open, however long the machine takes: a scan or two goes by meanwhile.
        clock.advance(by: .seconds(59))
        #expect(!idle.isClosedByServer(within: 0.2))
        #expect(try idle.get("/").body == "ok")
        clock.advance(by: .seconds(60))
        #expect(idle.isClosedByServer(within: 5))
        #expect(idle.unreadText.isEmpty)
        #expect(Support.eventually(within: 5) { server.openConnectionCount == 0 })
    }

    @Test func aHeadOrABodyTooLargeIsRefusedAndTheConnectionClosed() throws {
        let server = try Support.started { _ in Support.text("ok") }
        defer { _ = server.drain(within: .seconds(5)) }
        let longHead = try LoopbackHTTPConnection(port: server.address.port)
        try longHead.send("GET / HTTP/1.1\r\nX-Long: " + String(repeating: "a", count: 9000) + "\r\n\r\n")
        #expect(try longHead.readReply().status == 431)
        #expect(longHead.isClosedByServer(within: 5))
        let largeBody = try LoopbackHTTPConnection(port: server.address.port)
        try largeBody.send("POST / HTTP/1.1\r\nContent-Length: 70000\r\n\r\n")
        #expect(try largeBody.readReply().status == 413)
        #expect(largeBody.isClosedByServer(within: 5))
        // A pipelined request before a bad one is answered first.
        let mixed = try LoopbackHTTPConnection(port: server.address.port)
        try mixed.send("GET / HTTP/1.1\r\n\r\nNOT HTTP\r\n\r\n")
        #expect(try mixed.readReply().body == "ok")
        #expect(try mixed.readReply().status == 400)
    }

    @Test func pastMaxConnectionsANewOneGets503UntilAnotherCloses() throws {
        var settings = ServeSettings()
        settings.maxConnections = 2
        let server = try Support.started(settings) { _ in Support.text("ok") }
        defer { _ = server.drain(within: .seconds(5)) }
        let first = try LoopbackHTTPConnection(port: server.address.port)
        let second = try LoopbackHTTPConnection(port: server.address.port)
        #expect(try first.get("/").body == "ok")
        #expect(try second.get("/").body == "ok")
        let third = try LoopbackHTTPConnection(port: server.address.port)
        let refused = try third.readReply()
        #expect(refused.status == 503)
        #expect(refused.headers["retry-after"] == "1")
        #expect(third.isClosedByServer(within: 5))
        try first.send("GET / HTTP/1.1\r\nConnection: close\r\n\r\n")
        #expect(try first.readReply().headers["connection"] == "close")
        #expect(first.isClosedByServer(within: 5))
        #expect(Support.eventually(within: 5) { server.openConnectionCount == 1 })
        let fourth = try LoopbackHTTPConnection(port: server.address.port)
        #expect(try fourth.get("/").body == "ok")
    }

    @Test func drainAnswersTheRequestInFlightWithConnectionCloseAndClosesTheIdleOnes() throws {
        let gate = Support.Gate()
        let asked = LockedBox(false)
        let server = try Support.started { request in
            guard request.path == "/slow" else { return Support.text("ok") }
            asked.set(true)
            return .later {
                await gate.wait()
                return .response(.text(200, "slow"), route: "test")
            }
        }
        let idle = try LoopbackHTTPConnection(port: server.address.port)
        #expect(try idle.get("/").body == "ok")
        let busy = try LoopbackHTTPConnection(port: server.address.port)
        try busy.send("GET /slow HTTP/1.1\r\n\r\n")
        // Read and being answered before the drain begins (one still unread when it does is closed with the idle ones).
        #expect(Support.eventually(within: 5) { asked.get() })
        let drained = LockedBox<Bool?>(nil)
        Thread.detachNewThread { drained.set(server.drain(within: .seconds(10))) }
        #expect(idle.isClosedByServer(within: 5))
        #expect(drained.get() == nil)
        gate.release()
        let answer = try busy.readReply()
        #expect(answer.body == "slow")
        #expect(answer.headers["connection"] == "close")
        #expect(busy.isClosedByServer(within: 5))
        #expect(Support.eventually(within: 10) { drained.get() != nil })
        #expect(drained.get() == true)
        #expect((try? LoopbackHTTPConnection(port: server.address.port).get("/")) == nil, "still accepting after the drain")
    }
}
