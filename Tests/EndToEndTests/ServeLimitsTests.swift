import Foundation
import Glibc
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// Bad input to `serve`: refused with the status that says why, never a crash,
/// and the server keeps answering others.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct ServeLimitsTests {
    /// Sends `bytes` on a fresh connection and reads the one reply.
    func reply(to bytes: [UInt8], _ server: ServeProcess) throws -> HTTPReply {
        let connection = try server.connect()
        try connection.send(bytes)
        return try connection.readReply()
    }

    @Test func malformedRequestsAreRefusedAndTheServerLivesOn() throws {
        let sandbox = try ServeTests.fileSandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let cases: [(String, [UInt8], Int)] = [
            ("head over 8 KiB", Array("GET /healthz HTTP/1.1\r\nX-Big: \(String(repeating: "a", count: 9000))\r\n\r\n".utf8), 431),
            ("request line without a version", Array("GET /healthz\r\n\r\n".utf8), 400),
            ("garbage", Array("\u{1}\u{2}\u{3} nonsense\r\n\r\n".utf8), 400),
            ("target not a path", Array("GET healthz HTTP/1.1\r\n\r\n".utf8), 400),
            ("HTTP/2", Array("GET /healthz HTTP/2.0\r\n\r\n".utf8), 505),
            ("bad percent-encoding", Array("GET /v1/prices?asset=%ZZ HTTP/1.1\r\n\r\n".utf8), 400),
            ("truncated percent-encoding", Array("GET /v1/prices?asset=BTC% HTTP/1.1\r\n\r\n".utf8), 400),
            ("invalid UTF-8 after decoding", Array("GET /v1/prices?asset=%FF%FE HTTP/1.1\r\n\r\n".utf8), 400),
            ("invalid UTF-8 in a header", Array("GET /healthz HTTP/1.1\r\nX-A: ".utf8) + [0xC3, 0x28] + Array("\r\n\r\n".utf8), 400),
            ("header without a colon", Array("GET /healthz HTTP/1.1\r\nNoColon\r\n\r\n".utf8), 400),
            ("folded header", Array("GET /healthz HTTP/1.1\r\nX-A: 1\r\n  2\r\n\r\n".utf8), 400),
            ("two Content-Lengths", Array("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab".utf8), 400),
            ("chunked body", Array("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n".utf8), 501),
            ("body over 64 KiB", Array("POST / HTTP/1.1\r\nContent-Length: 70000\r\n\r\n".utf8), 413),
        ]
        for (name, bytes, status) in cases {
            let answer = try reply(to: bytes, server)
            #expect(answer.status == status, "\(name): \(answer)")
            #expect(answer.headers["connection"] == "close", "\(name)")
            #expect(answer.body.hasPrefix(#"{"error":""#), "\(name): \(answer)")
        }
        #expect(try server.get("/healthz").status == 200)
        #expect(server.stop() == 0)
    }

    @Test func aHeadThatTricklesInGets408AndAnIdleConnectionIsClosed() throws {
        let sandbox = try ServeTests.fileSandbox(serve: #"{"headerTimeoutSeconds": 0.5, "idleTimeoutSeconds": 0.5}"#)
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let slow = try server.connect()
        try slow.send("GET /healthz HTTP/1.1\r\nX-Slow: ")
        for _ in 0..<3 {
            usleep(300_000)
            try? slow.send("a")
        }
        let answer = try slow.readReply()
        #expect(answer.status == 408, "\(answer)")
        #expect(slow.isClosedByServer(within: 5))

        let idle = try server.connect()
        #expect(try idle.get("/healthz").status == 200)
        #expect(idle.isClosedByServer(within: 5))
        #expect(idle.unreadText == "")
    }

    @Test func pastMaxConnectionsANewConnectionGetsAnImmediate503() throws {
        let sandbox = try ServeTests.fileSandbox(serve: #"{"maxConnections": 2}"#)
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let first = try server.connect()
        let second = try server.connect()
        #expect(try first.get("/healthz").status == 200)
        #expect(try second.get("/healthz").status == 200)
        let third = try server.connect()
        // Sent nothing: the answer comes on accepting.
        let refused = try third.readReply()
        #expect(refused.status == 503)
        #expect(refused.headers["retry-after"] == "1")
        #expect(refused.body == #"{"error":"too many connections (serve.maxConnections is 2); try again shortly"}"#)
        #expect(third.isClosedByServer(within: 5))
        // A place frees up when one leaves.
        _ = try first.get("/healthz", headers: ["Connection": "close"])
        #expect(first.isClosedByServer(within: 5))
        var answered = false
        for _ in 0..<50 where !answered {
            if let status = try? server.get("/healthz").status, status == 200 { answered = true } else { usleep(100_000) }
        }
        #expect(answered)
    }

    @Test func theTokenIsNeededEverywhereButHealthz() throws {
        let sandbox = try ServeTests.fileSandbox(serve: #"{"token": "${PRICEHOST_TOKEN}"}"#)
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox, environment: ["PRICEHOST_TOKEN": "s3cret-token"])
        defer { server.stop() }
        for path in ["/v1/prices?asset=BTC", "/v1/history?asset=BTC", "/metrics", "/readyz", "/v1/stream?asset=BTC"] {
            let none = try server.get(path)
            #expect(none.status == 401, "\(path)")
            #expect(none.headers["www-authenticate"] == "Bearer")
            #expect(try server.get(path, headers: ["Authorization": "Bearer s3cret-tokeN"]).status == 401)
            #expect(try server.get(path, headers: ["Authorization": "Bearer s3cret-token-and-more"]).status == 401)
        }
        #expect(try server.post("/", body: #"{"data":{"base":"BTC"}}"#).status == 401)
        #expect(withoutAges(try server.get("/v1/prices?asset=BTC", headers: ["Authorization": "Bearer s3cret-token"]).body) == "[\(ServeTests.btc)]")
        #expect(try server.get("/healthz").status == 200)
    }

    @Test func aTokenVariableThatIsNotSetIsAConfigError() throws {
        let sandbox = try ServeTests.fileSandbox(serve: #"{"token": "${PRICEHOST_TOKEN}"}"#)
        defer { sandbox.remove() }
        let result = try sandbox.run(["serve", "--listen", "127.0.0.1:0"])
        #expect(result.status == 3)
        #expect(result.errorLines == ["pricehost: error: \(sandbox.configPath): serve.token: environment variable PRICEHOST_TOKEN is not set"], "\(result)")
        // Only serve uses the token: an operator's fetch from the same config works without it.
        #expect(try sandbox.run(["fetch", "--asset", "BTC", "--format", "json"]).withoutAges.outputLines == [ServeTests.btc])
    }

    @Test func aPortInUseIsOneLineAndStatus5() throws {
        let sandbox = try ServeTests.fileSandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let result = try sandbox.run(["serve", "--listen", "127.0.0.1:\(server.port)"])
        #expect(result.status == 5)
        #expect(result.errorLines == ["pricehost: error: cannot listen on 127.0.0.1:\(server.port): Address already in use (another process listens there; stop it or choose another port with --listen)"], "\(result)")
    }

    @Test(arguments: ["8480", "127.0.0.1", "127.0.0.1:99999", "example.com:80", "127.0.0.1:-1"])
    func aBadListenIsAUsageError(listen: String) throws {
        let sandbox = try ServeTests.fileSandbox()
        defer { sandbox.remove() }
        let result = try sandbox.run(["serve", "--listen", listen])
        #expect(result.status == 2)
        #expect(result.errorLines == ["pricehost: error: --listen \"\(listen)\" is not a listen address; expected IPV4:PORT such as 127.0.0.1:8480 (or localhost:PORT)"], "\(result)")
    }

    @Test func listeningBeyondLoopbackWithoutATokenWarns() throws {
        let sandbox = try ServeTests.fileSandbox()
        defer { sandbox.remove() }
        // 192.0.2.1 (TEST-NET-1) is no interface of this machine: the warning, then the bind fails; nothing listens.
        let result = try sandbox.run(["serve", "--listen", "192.0.2.1:0"])
        #expect(result.status == 5)
        #expect(result.errorLines.count == 2, "\(result)")
        #expect(result.errorLines.first?.hasPrefix("pricehost: warning: serving on 192.0.2.1:0, beyond this machine, without a token") == true, "\(result)")
        #expect(result.errorLines.last?.hasPrefix("pricehost: error: cannot listen on 192.0.2.1:0: ") == true)
    }
}
