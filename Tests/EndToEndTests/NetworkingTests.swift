import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// The host's HTTP (libcurl, dlopen'ed) against upstreams that misbehave, as
/// a user meets them: `pricehost fetch --provider coinbase` against a loopback
/// server. Each case asserts the exact line, the exit status and what the
/// server saw.
@Suite(.timeLimit(.minutes(3)), .serialized, .blockingLane)
struct NetworkingTests {
    static let spotBody = CoinbaseTests.spot("BTC", "USD", "15840.01")

    static func config(baseURL: String, coinbase extra: String = "") -> String {
        """
        {
          "plugins": ["libFileProvider.so", "libCoinbaseProvider.so"],
          "providers": {
            "file": {"path": "prices.json"},
            "coinbase": {"baseURL": "\(baseURL)", "timeoutSeconds": 2, "maxAttempts": 2, "retryBaseDelayMilliseconds": 10\(extra)}
          },
          "defaults": {"provider": "coinbase"}
        }
        """
    }

    /// Runs `fetch --asset BTC` against a server answering every request with `reply`.
    func fetch(coinbase extra: String = "", environment: [String: String] = [:], arguments: [String] = ["fetch", "--asset", "BTC"],
               _ reply: @escaping @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply) throws -> (CommandResult, LoopbackHTTPServer) {
        let server = try LoopbackHTTPServer { request, _ in reply(request) }
        let sandbox = try Sandbox(config: Self.config(baseURL: server.baseURL, coinbase: extra), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let result = try sandbox.run(arguments, environment: environment)
        server.stop()
        return (result, server)
    }

    static func failure(_ server: LoopbackHTTPServer, _ cause: String, path: String = "/v2/prices/BTC-USD/spot") -> CommandResult {
        CommandResult(status: 1, standardOutput: "", standardError: "pricehost: error: coinbase: GET \(server.baseURL)\(path): \(cause)\n")
    }

    static let spotPath = "/v2/prices/BTC-USD/spot"

    @Test func headersThatNeverEndAreCutAt64KiB() throws {
        let (result, server) = try fetch { _ in
            .misbehaving(.endless(head: Array("HTTP/1.1 200 OK\r\n".utf8), chunk: Array("X-Pad: \(String(repeating: "a", count: 1000))\r\n".utf8),
                                  limit: 64 << 20, seconds: 20))
        }
        #expect(result == Self.failure(server, "the answer's headers go on past 64 KiB; stopped reading them (after 1 attempt)"))
        #expect(server.requestCount(path: Self.spotPath) == 1)
    }

    @Test func aServerThatNeverSendsAByteTimesOutOnTheStallLimit() throws {
        let (result, server) = try fetch { _ in .misbehaving(.bytes([], holdOpen: 10)) }
        #expect(result == Self.failure(server, "no byte received for 1 s (after 2 attempts)"))
        #expect(server.requestCount(path: Self.spotPath) == 2)
    }

    @Test func aBodyThatEndsEarlyIsNamedAndRetried() throws {
        let (result, server) = try fetch { _ in .init(body: #"{"data":"#, declaredLength: 400) }
        #expect(result == Self.failure(server, "the body ended early: 8 bytes of the 400 announced arrived before the connection closed (after 2 attempts)"))
        #expect(server.requestCount(path: Self.spotPath) == 2)
    }

    @Test func invalidChunkSizesAreAMalformedResponse() throws {
        let (result, server) = try fetch { _ in
            .misbehaving(.bytes(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\nabc\r\n0\r\n\r\n".utf8), holdOpen: 0))
        }
        #expect(result == Self.failure(server, "malformed response: the chunked body is not valid HTTP/1.1 chunked encoding (after 1 attempt)"))
        #expect(server.requestCount(path: Self.spotPath) == 1)
    }

    @Test func aStatusLineThatIsNotHTTPIsAMalformedResponse() throws {
        let (result, server) = try fetch { _ in .misbehaving(.bytes(Array("SSH-2.0-OpenSSH_9.2\r\n".utf8), holdOpen: 0)) }
        #expect(result == Self.failure(server, "malformed response: the server's answer is not valid HTTP (after 1 attempt)"))
        #expect(server.requestCount(path: Self.spotPath) == 1)
    }

    @Test func aBodyOverTheCapWithContentLengthIsRefusedBeforeItIsRead() throws {
        let (result, server) = try fetch(coinbase: #", "maxResponseBytes": 4096"#) { _ in
            .misbehaving(.endless(head: Array("HTTP/1.1 200 OK\r\nContent-Length: 1000000000\r\n\r\n".utf8), chunk: [UInt8](repeating: 32, count: 65_536),
                                  limit: 1 << 30, seconds: 20))
        }
        #expect(result == Self.failure(server, "the answer is 1000000000 bytes; the limit (maxResponseBytes) is 4096 (after 1 attempt)"))
        #expect(server.requestCount(path: Self.spotPath) == 1)
    }

    @Test(arguments: [
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
        "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n",
    ])
    func anEndlessBodyWithoutContentLengthStopsAtTheCap(head: String) throws {
        let chunked = head.contains("chunked")
        let piece = [UInt8](repeating: 32, count: 16_384)
        let chunk = chunked ? Array("4000\r\n".utf8) + piece + Array("\r\n".utf8) : piece
        let (result, server) = try fetch { _ in
            .misbehaving(.endless(head: Array(head.utf8), chunk: chunk, limit: 1 << 30, seconds: 20))
        }
        #expect(result == Self.failure(server, "the answer is more than 1048576 bytes, the limit (maxResponseBytes); stopped reading it there (after 1 attempt)"))
        #expect(server.requestCount(path: Self.spotPath) == 1)
    }

    @Test func aGzipBombIsCappedOnItsDecodedSize() throws {
        let bomb = try Self.gzip([UInt8](repeating: 0, count: 16 << 20))
        #expect(bomb.count < 64 * 1024)
        let (result, server) = try fetch { _ in .init(headers: [("Content-Encoding", "gzip")], bytes: bomb) }
        #expect(result == Self.failure(server, "the answer is more than 1048576 bytes, the limit (maxResponseBytes); stopped reading it there (after 1 attempt)"))
        #expect(server.requestCount(path: Self.spotPath) == 1)
    }

    @Test func aCompressedAnswerIsDecoded() throws {
        let body = try Self.gzip(Array(Self.spotBody.utf8))
        let (result, server) = try fetch(arguments: ["fetch", "--asset", "BTC", "--format", "csv"]) { request in
            request.headers["accept-encoding"]?.contains("gzip") == true
                ? .init(headers: [("Content-Encoding", "gzip")], bytes: body) : .init(status: 400, body: "no gzip asked for")
        }
        #expect(result.status == 0, "\(result)")
        #expect(result.outputLines.last?.hasPrefix("BTC,USD,15840.01,coinbase,") == true, "\(result)")
        #expect(server.requestCount(path: Self.spotPath) == 1)
    }

    @Test func redirectsAreNotFollowedUnlessTheProviderOptsIn() throws {
        let (result, server) = try fetch { _ in .init(status: 302, headers: [("Location", "/elsewhere")]) }
        #expect(result.status == 1, "\(result)")
        #expect(server.requestCounts == [Self.spotPath: 1])
    }

    @Test func anOptedInRedirectIsFollowedWithinTheOrigin() throws {
        let (result, server) = try fetch(coinbase: #", "followRedirects": true"#, arguments: ["fetch", "--asset", "BTC", "--format", "csv"]) { request in
            request.path == "/moved" ? .init(body: Self.spotBody) : .init(status: 301, headers: [("Location", "/moved")])
        }
        #expect(result.status == 0, "\(result)")
        #expect(result.outputLines.last?.hasPrefix("BTC,USD,15840.01,coinbase,") == true, "\(result)")
        #expect(server.requestCounts == [Self.spotPath: 1, "/moved": 1])
    }

    @Test func aRedirectLoopStopsAfterThreeHops() throws {
        let (result, server) = try fetch(coinbase: #", "followRedirects": true"#) { _ in .init(status: 302, headers: [("Location", "/loop")]) }
        #expect(result == Self.failure(server, "too many redirects (more than 3; the last to \(server.baseURL)/loop) (after 1 attempt)"))
        #expect(server.requestCounts == [Self.spotPath: 1, "/loop": 3])
    }

    @Test func aRedirectToAnotherOriginIsNotFollowed() throws {
        let (result, server) = try fetch(coinbase: #", "followRedirects": true"#) { _ in
            .init(status: 302, headers: [("Location", "http://127.0.0.1:1/stolen")])
        }
        #expect(result == Self.failure(server, "redirected to http://127.0.0.1:1/stolen, another origin; pricehost follows redirects only within one origin (after 1 attempt)"))
        #expect(server.requestCounts == [Self.spotPath: 1])
    }

    @Test func watchReusesOneConnectionAcrossTicks() throws {
        let (result, server) = try fetch(arguments: ["watch", "--asset", "BTC", "--interval", "0.1", "--ticks", "20", "--format", "csv"]) { _ in
            .init(body: Self.spotBody)
        }
        #expect(result.status == 0, "\(result)")
        #expect(result.outputLines.filter { $0.hasPrefix("BTC,USD,15840.01,coinbase,") }.count == 20, "\(result)")
        #expect(server.requestCount(path: Self.spotPath) == 20)
        #expect(server.connectionCount == 1)
    }

    @Test func everyRequestCarriesTheUserAgent() throws {
        let (result, server) = try fetch { request in
            request.headers["user-agent"]?.hasPrefix("pricehost/") == true ? .init(body: Self.spotBody) : .init(status: 400, body: "who are you?")
        }
        #expect(result.status == 0, "\(result)")
        #expect(server.requestCount(path: Self.spotPath) == 1)
    }

    @Test func withoutLibcurlTheLineSaysWhatToInstallAndTheExitIs3() throws {
        let missing = "/nonexistent/libcurl.so.4"
        let (result, server) = try fetch(environment: ["PRICEHOST_LIBCURL": missing]) { _ in .init(body: Self.spotBody) }
        #expect(result == CommandResult(status: 3, standardOutput: "", standardError: """
            pricehost: error: coinbase: cannot load \(missing), the library pricehost makes HTTP requests with: \(missing): cannot open shared object file: No such file or directory; install it (Debian and Ubuntu: apt-get install libcurl4; Fedora: dnf install libcurl)

            """))
        #expect(server.requestCounts.isEmpty)
    }

    @Test func onlyACommandThatMakesARequestLoadsLibcurl() throws {
        let server = try LoopbackHTTPServer { _, _ in .init(body: Self.spotBody) }
        defer { server.stop() }
        let sandbox = try Sandbox(config: Self.config(baseURL: server.baseURL), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let file = try sandbox.run(["fetch", "--provider", "file", "--asset", "BTC"], environment: ["LD_DEBUG": "libs"])
        #expect(file.status == 0)
        #expect(!file.standardError.contains("libcurl"), "\(file.errorLines.filter { $0.contains("curl") })")
        let network = try sandbox.run(["fetch", "--provider", "coinbase", "--asset", "BTC"], environment: ["LD_DEBUG": "libs"])
        #expect(network.status == 0)
        #expect(network.standardError.contains("calling init: /lib/x86_64-linux-gnu/libcurl.so.4")
                || network.standardError.contains("libcurl.so.4"))
    }

    @Test func aProxyFromTheEnvironmentIsUsedAndNoProxyBypassesIt() throws {
        let upstream = try LoopbackHTTPServer { _, _ in .init(body: Self.spotBody) }
        defer { upstream.stop() }
        let proxy = try LoopbackHTTPServer { request, _ in
            request.path == "http://prices.invalid/v2/prices/BTC-USD/spot" ? .init(body: Self.spotBody) : .init(status: 502, body: "unexpected")
        }
        defer { proxy.stop() }
        let viaProxy = try Sandbox(config: Self.config(baseURL: "http://prices.invalid"), files: ["prices.json": samplePrices])
        defer { viaProxy.remove() }
        let proxied = try viaProxy.run(["fetch", "--asset", "BTC", "--format", "csv"], environment: ["http_proxy": proxy.baseURL])
        #expect(proxied.status == 0, "\(proxied)")
        #expect(proxy.requestCount(path: "http://prices.invalid/v2/prices/BTC-USD/spot") == 1)

        let direct = try Sandbox(config: Self.config(baseURL: upstream.baseURL), files: ["prices.json": samplePrices])
        defer { direct.remove() }
        let bypassed = try direct.run(["fetch", "--asset", "BTC"], environment: ["http_proxy": proxy.baseURL, "NO_PROXY": "127.0.0.1"])
        #expect(bypassed.status == 0, "\(bypassed)")
        #expect(upstream.requestCount(path: Self.spotPath) == 1)
        #expect(proxy.requestCounts.count == 1)
    }

    @Test func anUnreadableCAFileIsAConfigError() throws {
        let sandbox = try Sandbox(config: Self.config(baseURL: "https://127.0.0.1:1", coinbase: #", "caFile": "missing-ca.pem""#),
                                  files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--asset", "BTC"])
        let path = sandbox.configPath
        #expect(result == CommandResult(status: 3, standardOutput: "", standardError: """
            pricehost: error: \(path): providers.coinbase.caFile: cannot read the CA file \(sandbox.directory.file("missing-ca.pem")): No such file or directory

            """))
    }

    /// `bytes` compressed by gzip(1): an oracle independent of libcurl's zlib.
    static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("body")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = try CommandRunner.run("/bin/gzip", ["-9", path])
        guard result.status == 0 else { throw CocoaError(.fileWriteUnknown) }
        return Array(try Data(contentsOf: URL(fileURLWithPath: path + ".gz")))
    }
}
