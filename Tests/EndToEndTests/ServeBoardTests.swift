import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// `GET /` (the board's page) and `GET /v1/board` (what it shows) over real sockets; the
/// page's behaviour in a browser is BoardBrowserTests'. `POST /` stays the Chainlink adapter.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct ServeBoardTests {
    static let assets = #", "assets": {"BTC": {"provider": "file", "maxAgeSeconds": 30}, "ETH": {"providers": ["file"]}}"#

    /// One asset more than a request may ask for.
    static let manyAssets = (0...100).map { "X\($0)" }.joined(separator: ",")

    static func sandbox(token: String? = nil) throws -> Sandbox {
        let serve = token.map { #", "serve": {"token": "\#($0)"}"# } ?? ""
        return try Sandbox(config: configJSON(plugins: ["libFileProvider.so"], extra: assets + serve), files: ["prices.json": samplePrices])
    }

    @Test func getSlashIsTheBoardWithItsPolicyAndPostSlashIsStillChainlink() throws {
        let sandbox = try Self.sandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let page = try server.get("/?asset=btc,ETH&currency=usd&interval=1")
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.headers["cache-control"] == "no-store")
        let policy = page.headers["content-security-policy"] ?? ""
        #expect(policy.hasPrefix("default-src 'none'; script-src 'sha256-") && policy.contains("connect-src 'self'"), "\(policy)")
        #expect(page.body.hasPrefix("<!doctype html>") && page.body.contains("<main id=\"board\""))
        #expect(page.body.utf8.count <= 50 * 1024)

        let head = try server.connect()
        try head.send("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n")
        let headReply = try head.read(until: "\r\n\r\n")
        #expect(headReply.hasPrefix("HTTP/1.1 200 OK\r\n") && headReply.contains("Content-Length: \(page.body.utf8.count)\r\n"), "\(headReply)")
        #expect(headReply.hasSuffix("\r\n\r\n"), "no body after HEAD's head")

        let chainlink = try server.post("/", body: #"{"id":"1","data":{"base":"ETH","quote":"USD"}}"#)
        #expect(chainlink.body == #"{"jobRunID":"1","data":{"result":"3120.48"},"result":"3120.48","statusCode":200}"#)

        let put = try server.connect()
        try put.send("PUT / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        let wrong = try put.readReply()
        #expect(wrong.status == 405 && wrong.headers["allow"] == "GET, HEAD, POST", "\(wrong)")
        #expect(wrong.body == #"{"error":"PUT is not allowed on /; allowed: GET, HEAD, POST"}"#)
    }

    @Test(arguments: [
        ("asset=../x", "/v1/prices?asset=../x"),
        ("asset=BTC,", "/v1/prices?asset=BTC,"),
        ("currency=%24%24", "/v1/prices?asset=BTC&currency=%24%24"),
        ("interval=0", "/v1/stream?asset=BTC&interval=0"),
        ("asset=" + manyAssets, "/v1/prices?asset=" + manyAssets),
    ])
    func badInputGetsTheAPIsOwn400(board: String, api: String) throws {
        let sandbox = try Self.sandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let expected = try server.get(api)
        #expect(expected.status == 400)
        for path in ["/?" + board, "/v1/board?" + board] where !(path.hasPrefix("/v1/board") && board.hasPrefix("interval")) {
            let reply = try server.get(path)
            #expect(reply.status == 400, "\(path): \(reply)")
            #expect(reply.body == expected.body, "\(path)")
            #expect(reply.headers["content-type"] == "application/json")
        }
        let unknown = try server.get("/?colour=red")
        #expect(unknown.status == 400)
        #expect(unknown.body == #"{"error":"unknown parameter \"colour\"; this route takes asset, currency, interval"}"#)
    }

    @Test func theBoardsConfigNamesEachAssetsProvidersAndTheirLimitsAndNoSecret() throws {
        let sandbox = try Self.sandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let all = try server.get("/v1/board")
        #expect(all.status == 200)
        #expect(all.body == #"{"currency":"USD","heartbeatSeconds":15,"assets":[{"asset":"BTC","providers":[{"name":"file","stream":false,"maxAgeSeconds":30}]},{"asset":"ETH","providers":[{"name":"file","stream":false}]}]}"#, "\(all)")
        #expect(!all.body.contains("prices.json"))
        let asked = try server.get("/v1/board?asset=sol&currency=EUR")
        #expect(asked.body == #"{"currency":"EUR","heartbeatSeconds":15,"assets":[{"asset":"SOL","providers":[{"name":"file","stream":false}]}]}"#, "\(asked)")
    }

    @Test func anAssetNothingProvidesIsShownWithItsRoutingError() throws {
        let sandbox = try Sandbox(config: """
            {"plugins": ["libFileProvider.so"], "providers": {"file": {"path": "prices.json"}}, "assets": {"BTC": {"provider": "file"}}}
            """, files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let reply = try server.get("/v1/board?asset=BTC,ETH")
        #expect(reply.status == 200)
        #expect(reply.body.hasPrefix(#"{"currency":"USD","heartbeatSeconds":15,"assets":[{"asset":"BTC","providers":[{"name":"file","stream":false}]},{"asset":"ETH","error":""#), "\(reply)")
    }

    @Test func withATokenThePageNeedsNoneButWhatItReadsDoesAndTheTokenIsNeverLogged() throws {
        let token = "board-\(UUID().uuidString)"
        let sandbox = try Self.sandbox(token: token)
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        #expect(try server.get("/").status == 200)
        #expect(try server.get("/?asset=../x").status == 400)
        #expect(try server.get("/v1/board").status == 401)
        #expect(try server.post("/", body: #"{"id":"1","data":{"base":"ETH"}}"#).status == 401)
        let authorized = try server.get("/v1/board", headers: ["Authorization": "Bearer \(token)"])
        #expect(authorized.status == 200 && authorized.body.contains(#""asset":"BTC""#))
        #expect(!authorized.body.contains(token))
        let stream = try server.connect()
        try stream.send("GET /v1/stream?asset=ETH&interval=0.1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n\r\n")
        _ = try stream.read(until: "3120.48", count: 1)
        #expect(server.stop() == 0)
        let access = server.process.errorLines.filter { $0.hasPrefix("pricehost: info: ") }
        #expect(access.contains { $0.hasPrefix("pricehost: info: GET / 200 ") }, "\(access)")
        #expect(access.contains { $0.hasPrefix("pricehost: info: GET /v1/board 401 ") })
        #expect(!server.process.standardError.contains(token), "\(server.process.standardError)")
    }
}
