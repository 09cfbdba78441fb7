import Foundation
@testable import PriceHostService
import PriceHostFuzzing
import PriceHostTestTraits
import PriceHostTesting
import Testing

/// The request parser: exact requests, each refusal's status, and a seeded fuzz loop.
@Suite(.offThePool)
struct ServeRequestParserTests {
    static func parse(_ text: String) -> ServeRequestParser.Outcome {
        ServeRequestParser.parse(Array(text.utf8)[...])
    }

    @Test func aRequestWithQueryAndBodyIsReadExactly() throws {
        let text = "POST /v1/x%2Fy?asset=BTC,eth&currency=E+U&flag HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nX-Pad:  v  \r\n\r\nbodyGET"
        guard case .request(let request, let consumed) = Self.parse(text) else { Issue.record("\(Self.parse(text))"); return }
        #expect(consumed == text.utf8.count - 3)
        #expect(request.method == "POST")
        #expect(request.path == "/v1/x/y")
        #expect(request.query.map(\.name) == ["asset", "currency", "flag"])
        #expect(request.query.map(\.value) == ["BTC,eth", "E U", ""])
        #expect(request.header("x-pad") == "v")
        #expect(request.body == Array("body".utf8))
        #expect(request.keepAlive)
    }

    @Test func keepAliveFollowsTheVersionAndConnectionHeader() {
        func keepAlive(_ text: String) -> Bool? {
            if case .request(let request, _) = Self.parse(text) { return request.keepAlive }
            return nil
        }
        #expect(keepAlive("GET / HTTP/1.1\r\nConnection: close\r\n\r\n") == false)
        #expect(keepAlive("GET / HTTP/1.0\r\n\r\n") == false)
        #expect(keepAlive("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n") == true)
        #expect(keepAlive("GET / HTTP/1.1\n\n") == true)
    }

    @Test func partsOfARequestAreIncomplete() {
        #expect(Self.parse("GET / HTTP/1.1\r\nHost: a\r\n") == .incomplete)
        #expect(Self.parse("POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc") == .incomplete)
        #expect(Self.parse("") == .incomplete)
    }

    @Test(arguments: [
        ("GET / HTTP/1.1\r\nX: \(String(repeating: "a", count: 8200))\r\n\r\n", 431),
        ("GET / HTTP/1.1\r\nX: \(String(repeating: "a", count: 9000))", 431),
        ("POST / HTTP/1.1\r\nContent-Length: 65537\r\n\r\n", 413),
        ("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n", 400),
        ("GET  / HTTP/1.1\r\n\r\n", 400),
        ("GET /%E2%82 HTTP/1.1\r\n\r\n", 400),
        ("GET /?a=%G0 HTTP/1.1\r\n\r\n", 400),
        ("GET /?a=%4 HTTP/1.1\r\n\r\n", 400),
        ("GET http://x/ HTTP/1.1\r\n\r\n", 400),
        ("GET / HTTP/1.2\r\n\r\n", 505),
        ("GET / HTTP/1.1\r\n: empty name\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nBad Name: v\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nX: a\u{7F}b\r\n\r\n", 400),
    ])
    func refusalsCarryTheirStatus(text: String, status: Int) {
        guard case .refused(let refused, _) = Self.parse(text) else {
            Issue.record("not refused: \(Self.parse(text))")
            return
        }
        #expect(refused == status)
    }

    /// Any bytes: an outcome, never a crash or a hang; a request consumes no more than it was given.
    @Test func fuzzedBytesAlwaysHaveAnOutcome() throws {
        let run = try FuzzRun()
        let corpus = [
            "GET /v1/prices?asset=BTC,ETH&currency=EUR HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer x\r\n\r\n",
            "POST / HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 43\r\n\r\n{\"id\":\"1\",\"data\":{\"base\":\"ETH\",\"quote\":\"USD\"}}",
            "GET /v1/stream?asset=BTC&interval=5 HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /healthz HTTP/1.1\r\n\r\n",
        ].map { Array($0.utf8) }
        let mutator = Mutator(corpus: corpus, tokens: Mutator.commonTokens + ["%", "%0", "%ZZ", "%C3%28", "\r\n\r\n", "Content-Length: ", "HTTP/1.1"].map { Array($0.utf8) })
        let tally = run.loop("ServeRequestParserTests/bytes", iterations: 5_000) { random, iteration in
            iteration < corpus.count ? corpus[iteration] : mutator.mutate(using: &random)
        } describe: {
            FuzzText.describe($0)
        } check: { bytes in
            switch ServeRequestParser.parse(bytes[...]) {
            case .request(let request, let consumed):
                guard consumed > 0, consumed <= bytes.count, request.path.hasPrefix("/") else { return .problem("consumed \(consumed) of \(bytes.count)") }
                return .value
            case .refused(let status, let message):
                guard [400, 413, 431, 501, 505].contains(status), !message.isEmpty else { return .problem("status \(status)") }
                return .error
            case .incomplete:
                return .error
            }
        }
        #expect(tally.values > 0 && tally.errors > 0, "\(tally)")
    }

    @Test func theTokenMustMatchExactly() {
        #expect(TokenCheck.authorizes("Bearer abc", token: "abc"))
        #expect(!TokenCheck.authorizes("Bearer abd", token: "abc"))
        #expect(!TokenCheck.authorizes("Bearer ab", token: "abc"))
        #expect(!TokenCheck.authorizes("Bearer abcabc", token: "abc"))
        #expect(!TokenCheck.authorizes("bearer abc", token: "abc"))
        #expect(!TokenCheck.authorizes(nil, token: "abc"))
    }

    @Test func listenAddressesAreIPv4WithAPort() {
        #expect(ListenAddress("127.0.0.1:8480") == ListenAddress(host: "127.0.0.1", port: 8480))
        #expect(ListenAddress("localhost:0") == ListenAddress(host: "127.0.0.1", port: 0))
        #expect(ListenAddress("0.0.0.0:80")?.isLoopback == false)
        for bad in ["", ":80", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "1.2.3:80", "[::1]:80", "host:80", "127.0.0.1:+80"] {
            #expect(ListenAddress(bad) == nil, "\(bad)")
        }
    }
}
