import Foundation
import Glibc
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// `pricehost serve` end to end: the built binary on a loopback port, spoken to
/// with real sockets. Waits are bounded; nothing asserts how fast anything is.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct ServeTests {
    static let btc = #"{"asset":"BTC","currency":"USD","amount":"91234.56","provider":"file","timestamp":"2026-11-20T12:00:00Z","status":"live"}"#
    static let eth = #"{"asset":"ETH","currency":"USD","amount":"3120.48","provider":"file","timestamp":"2026-11-20T12:00:00Z","status":"live"}"#

    static func fileSandbox(serve: String = "") throws -> Sandbox {
        try Sandbox(config: configJSON(plugins: ["libFileProvider.so"], extra: serve.isEmpty ? "" : ",\n  \"serve\": \(serve)"),
                    files: ["prices.json": samplePrices])
    }

    @Test func pricesAnswersTheObjectsFetchPrintsAndAnErrorObjectPerFailedAsset() throws {
        let sandbox = try Self.fileSandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let reply = try server.get("/v1/prices?asset=BTC,eth,DOGE")
        #expect(reply.status == 200)
        #expect(reply.headers["content-type"] == "application/json")
        #expect(withoutAges(reply.body).hasPrefix("[\(Self.btc),\(Self.eth),{\"asset\":\"DOGE\",\"currency\":\"USD\",\"error\":\"file: no price for DOGE-USD in "), "\(reply)")
        #expect(reply.body.hasSuffix("\"}]"))
        let fetched = try sandbox.run(["fetch", "--asset", "BTC", "--format", "json"])
        #expect(fetched.withoutAges.outputLines == [Self.btc])
    }

    @Test func everyAssetFailingIs502() throws {
        let sandbox = try Self.fileSandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let reply = try server.get("/v1/prices?asset=DOGE")
        #expect(reply.status == 502)
        #expect(reply.body.hasPrefix(#"[{"asset":"DOGE","currency":"USD","error":"file: no price for DOGE-USD"#), "\(reply)")
    }

    @Test(arguments: [
        ("/v1/prices?asset=../x", #"{"error":"asset \"../x\" is not an asset code (2 to 10 letters or digits)"}"#),
        ("/v1/prices", #"{"error":"asset is required, e.g. ?asset=BTC,ETH"}"#),
        ("/v1/prices?asset=BTC&currency=%24%24", #"{"error":"currency \"$$\" is not a currency code (2 to 10 letters or digits)"}"#),
        ("/v1/prices?asset=BTC&aggregate=mean", #"{"error":"aggregate takes median, not \"mean\""}"#),
        ("/v1/prices?asset=BTC&provider=Nope", #"{"error":"provider \"Nope\" is not a provider name (provider names are 1 to 32 lower-case letters, digits or '-')"}"#),
        ("/v1/prices?asset=BTC&provider=nope", #"{"error":"unknown provider 'nope' (from the provider parameter); loaded providers: file"}"#),
        ("/v1/prices?asset=BTC&colour=red", #"{"error":"unknown parameter \"colour\"; this route takes asset, currency, provider, aggregate, maxAgeSeconds"}"#),
        ("/v1/prices?asset=BTC&currency=EUR&currency=USD", #"{"error":"parameter currency is given twice"}"#),
        ("/v1/stream?asset=BTC&interval=0", #"{"error":"interval must be a number of seconds from 0.1 to 86400 (at most 3 decimals), not \"0\""}"#),
    ])
    func badParametersAre400WithTheCommandLinesRule(path: String, body: String) throws {
        let sandbox = try Self.fileSandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let reply = try server.get(path)
        #expect(reply.status == 400, "\(reply)")
        #expect(reply.body == body)
    }

    @Test func aggregateMedianAnswersTheAggregateObject() throws {
        let sandbox = try Self.fileSandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let reply = try server.get("/v1/prices?asset=BTC&aggregate=median")
        #expect(reply.status == 200)
        #expect(reply.body == #"[{"asset":"BTC","currency":"USD","amount":"91234.56","provider":"median","timestamp":"2026-11-20T12:00:00Z","min":"91234.56","max":"91234.56","spreadBps":"0","count":1,"sources":{"file":"91234.56"},"outliers":[],"confidence":"0","excluded":{}}]"#, "\(reply)")
    }

    @Test func healthzIsUpAndReadyzNamesAPluginThatFailedToLoad() throws {
        let sandbox = try Sandbox(config: configJSON(plugins: ["libFileProvider.so", "libMissing.so"]), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let health = try server.get("/healthz")
        #expect(health.status == 200)
        #expect(health.body == #"{"status":"ok"}"#)
        let ready = try server.get("/readyz")
        #expect(ready.status == 503)
        #expect(ready.body.hasPrefix(#"{"status":"not ready","problems":["#) && ready.body.contains("libMissing.so"), "\(ready)")
        // The plugins that did load still serve.
        #expect(withoutAges(try server.get("/v1/prices?asset=BTC").body) == "[\(Self.btc)]")
    }

    @Test func readyzIsReadyWhenEveryPluginLoaded() throws {
        let sandbox = try Self.fileSandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let ready = try server.get("/readyz")
        #expect(ready.status == 200)
        #expect(ready.body == #"{"status":"ready","plugins":1,"store":"ok"}"#)
    }

    @Test func unknownPathIs404AndAWrongMethodIs405WithAllow() throws {
        let sandbox = try Self.fileSandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let missing = try server.get("/v2/prices")
        #expect(missing.status == 404)
        #expect(missing.body.hasPrefix(#"{"error":"no route \"/v2/prices\""#))
        let wrong = try server.post("/v1/prices", body: "{}")
        #expect(wrong.status == 405)
        #expect(wrong.headers["allow"] == "GET, HEAD")
        let deleteRoot = try server.connect()
        try deleteRoot.send("DELETE / HTTP/1.1\r\nHost: x\r\n\r\n")
        let root = try deleteRoot.readReply()
        #expect(root.status == 405)
        #expect(root.headers["allow"] == "GET, HEAD, POST")
    }

    @Test func keepAliveAnswersPipelinedRequestsInOrder() throws {
        let sandbox = try Self.fileSandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let connection = try server.connect()
        try connection.send("GET /v1/prices?asset=ETH HTTP/1.1\r\nHost: x\r\n\r\nGET /nowhere HTTP/1.1\r\nHost: x\r\n\r\nGET /v1/prices?asset=BTC HTTP/1.1\r\nHost: x\r\n\r\n")
        let replies = try (0..<3).map { _ in try connection.readReply() }
        #expect(replies.map(\.status) == [200, 404, 200])
        #expect(withoutAges(replies[0].body) == "[\(Self.eth)]")
        #expect(withoutAges(replies[2].body) == "[\(Self.btc)]")
        #expect(replies[0].headers["connection"] == "keep-alive")
        // The same connection still answers.
        #expect(try connection.get("/healthz").status == 200)
    }

    @Test func connectionCloseIsHonoured() throws {
        let sandbox = try Self.fileSandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let connection = try server.connect()
        let reply = try connection.get("/healthz", headers: ["Connection": "close"])
        #expect(reply.headers["connection"] == "close")
        #expect(connection.isClosedByServer(within: 5))
    }

    @Test func accessLogHasOneLinePerRequestUnlessLogIsWarning() throws {
        let sandbox = try Self.fileSandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        _ = try server.get("/v1/prices?asset=BTC")
        _ = try server.get("/missing")
        #expect(server.stop() == 0)
        let access = server.process.errorLines.filter { $0.hasPrefix("pricehost: info: GET ") }
        #expect(access.count == 2, "\(server.process.standardError)")
        #expect(access.first?.range(of: #"^pricehost: info: GET /v1/prices 200 \d+\.\d ms$"#, options: .regularExpression) != nil, "\(access)")
        #expect(access.last?.hasPrefix("pricehost: info: GET /missing 404 ") == true)

        let quiet = try ServeProcess(sandbox, environment: ["PRICEHOST_LOG": "warning"])
        _ = try quiet.get("/v1/prices?asset=BTC")
        #expect(quiet.stop() == 0)
        #expect(quiet.process.errorLines == ["pricehost: serving on http://127.0.0.1:\(quiet.port)"])
    }
}
