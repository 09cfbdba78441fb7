@testable import PriceHostHTTP
import PriceHostTestTraits
import PriceHostTesting
import ProviderABI
import Testing

/// The libcurl transport's own logic: origins, our words for libcurl's codes
/// (the ones loopback cannot produce: DNS, TLS), HTTP dates. The transport's
/// behaviour on the wire is tested end to end (NetworkingTests).
@Suite(.offThePool)
struct CurlTransportTests {
    @Test(arguments: [
        ("http://127.0.0.1:8080/v2/x", "http://127.0.0.1:8080"),
        ("HTTPS://API.Example.com/x?y=1", "https://api.example.com:443"),
        ("http://example.com", "http://example.com:80"),
        ("http://user:pw@example.com:81/", "http://example.com:81"),
        ("https://[::1]/x", "https://[::1]:443"),
        ("https://[::1]:8443/x", "https://[::1]:8443"),
    ])
    func originNamesSchemeHostAndPort(url: String, origin: String) {
        #expect(CurlTransport.origin(of: url) == origin)
    }

    @Test(arguments: ["ftp://example.com/x", "file:///etc/passwd", "example.com/x", "http://", "http:///path"])
    func originIsNilForWhatIsNotAnAbsoluteHTTPURL(url: String) {
        #expect(CurlTransport.origin(of: url) == nil)
    }

    /// In process, so that the thread sanitizer sees the event loop: many GETs at
    /// once from many tasks, each answered once, over a pool of connections.
    @Test(.timeLimit(.minutes(5)))
    func concurrentRequestsShareTheLoopAndItsConnections() async throws {
        let server = try LoopbackHTTPServer { request, _ in .init(body: request.path) }
        defer { server.stop() }
        let transport = CurlTransport()
        let paths = (0..<40).map { "/item/\($0)" }
        for _ in 0..<2 {
            let bodies = try await withThrowingTaskGroup(of: String.self) { group in
                for path in paths {
                    group.addTask {
                        let response = try await transport.get(HTTPRequest(url: server.baseURL + path, timeout: .seconds(10)),
                                                               options: TransferOptions(maxResponseBytes: 1024))
                        return String(decoding: response.body, as: UTF8.self)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(bodies.sorted() == paths.sorted())
        }
        #expect(server.requestCounts.values.reduce(0, +) == 80)
        // The second round reuses the first round's connections.
        #expect(server.connectionCount <= 40)
    }

    /// A webhook's POST: the body whole (a zero byte and past curl's 1 KiB `Expect: 100-continue` size included),
    /// the request's headers, and the answer's status whatever it is.
    @Test(.timeLimit(.minutes(5)))
    func aPostSendsItsBodyAndHeaders() async throws {
        let received = LockedBox<[LoopbackHTTPServer.Request]>([])
        let server = try LoopbackHTTPServer { request, _ in
            received.update { $0.append(request) }
            return .init(status: 500)
        }
        defer { server.stop() }
        let body = Array("{\"a\":\"".utf8) + [0] + [UInt8](repeating: 0x62, count: 3000) + Array("\"}".utf8)
        let response = try await CurlTransport().post(HTTPRequest(url: server.baseURL + "/hook", headers: [HTTPHeader("X-Pricehost-Signature", "sha256=ab")],
                                                                  timeout: .seconds(10)), body: body)
        #expect(response.status == 500)
        let request = try #require(received.get().first)
        #expect(request.method == "POST")
        #expect(request.body == body)
        #expect(request.headers["x-pricehost-signature"] == "sha256=ab")
        #expect(request.headers["expect"] == nil)
        await #expect(throws: ProviderError(.invalidRequest, "POST ftp://x/: not an absolute http or https URL")) {
            try await CurlTransport().post(HTTPRequest(url: "ftp://x/"), body: [])
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func cancellingTheTaskEndsTheTransfer() async throws {
        let server = try LoopbackHTTPServer { _, _ in .misbehaving(.bytes([], holdOpen: 20)) }
        defer { server.stop() }
        let transport = CurlTransport()
        let task = Task {
            try await transport.get(HTTPRequest(url: server.baseURL + "/hang", timeout: .seconds(30)), options: TransferOptions(maxResponseBytes: 1024))
        }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        // The server says nothing for 20 s, then closes; the deadline is 30 s. A cancellation
        // that did not end the transfer would end in the transport's error for that close,
        // not in CancellationError. (No wall-clock bound: on two busy cores the awaiting task
        // can wait a long time for a thread to resume on.)
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test(.timeLimit(.minutes(5)))
    func cancellingBeforeTheJobReachesTheLoopStillEndsIt() async throws {
        let server = try LoopbackHTTPServer { _, _ in .misbehaving(.bytes([], holdOpen: 20)) }
        defer { server.stop() }
        let transport = CurlTransport()
        // Cancelled at once: the handler runs before the job is submitted, often before libcurl is even loaded.
        let task = Task {
            try await transport.get(HTTPRequest(url: server.baseURL + "/hang", timeout: .seconds(30)), options: TransferOptions(maxResponseBytes: 1024))
        }
        task.cancel()
        // As above: only a cancellation that ended the job gives CancellationError.
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func aMissingLibcurlFailsEveryRequestWithTheSameLineAndIsKept() async {
        let missing = "/nonexistent/libcurl.so.4"
        let transport = CurlTransport(libraryName: missing)
        #expect(transport.loadFailure == nil)
        let expected = ProviderError(.failed, LibCurl.LoadError(library: missing, reason: "\(missing): cannot open shared object file: No such file or directory").description)
        for _ in 0..<2 {
            await #expect(throws: expected) { try await transport.get(HTTPRequest(url: "http://127.0.0.1:9/x"), options: .init(maxResponseBytes: 1024)) }
        }
        #expect(transport.loadFailure?.library == missing)
    }

    @Test func aURLThatIsNotHTTPIsAnInvalidRequest() async {
        await #expect(throws: ProviderError(.invalidRequest, "GET file:///etc/passwd: not an absolute http or https URL")) {
            try await CurlTransport().get(HTTPRequest(url: "file:///etc/passwd"), options: .init(maxResponseBytes: 1024))
        }
    }

    static func error(_ code: Int, connected: Bool = true, elapsed: Duration = .seconds(1), caFile: String? = nil) -> ProviderError {
        CurlOutcome.error(code: code, abort: nil, url: "https://x.test/p", options: TransferOptions(maxResponseBytes: 1024, caFile: caFile),
                          timeout: .seconds(10), elapsed: elapsed, connected: connected, systemError: 0, curlMessage: "",
                          received: 0, announced: nil)
    }

    @Test func dnsAndTLSFailuresAreOurWords() {
        #expect(Self.error(6) == ProviderError(.unavailable, "GET https://x.test/p: host not found (DNS lookup failed)"))
        #expect(Self.error(60) == ProviderError(.invalidResponse, "GET https://x.test/p: TLS certificate problem: the server's certificate is not trusted by the system's CAs"))
        #expect(Self.error(60, caFile: "/ca.pem") == ProviderError(.invalidResponse, "GET https://x.test/p: TLS certificate problem: the server's certificate is not trusted by the CA in caFile /ca.pem"))
        #expect(Self.error(35) == ProviderError(.unavailable, "GET https://x.test/p: the TLS handshake failed"))
        #expect(Self.error(5) == ProviderError(.unavailable, "GET https://x.test/p: the proxy's host was not found (DNS lookup failed; see HTTPS_PROXY, http_proxy)"))
        #expect(Self.error(12345) == ProviderError(.unavailable, "GET https://x.test/p: the transfer failed (libcurl error 12345)"))
    }

    @Test func timeoutsSayWhichDeadlinePassed() {
        #expect(Self.error(28, connected: false) == ProviderError(.timeout, "GET https://x.test/p: no connection within 10 s"))
        #expect(Self.error(28, elapsed: .seconds(5)) == ProviderError(.timeout, "GET https://x.test/p: no byte received for 5 s"))
        #expect(Self.error(28, elapsed: .seconds(10)) == ProviderError(.timeout, "GET https://x.test/p: no complete answer within 10 s"))
    }

    @Test func theStallLimitIsHalfTheDeadlineInWholeSeconds() {
        #expect(CurlOutcome.stallSeconds(timeout: .seconds(10)) == 5)
        #expect(CurlOutcome.stallSeconds(timeout: .seconds(3)) == 1)
        #expect(CurlOutcome.stallSeconds(timeout: .milliseconds(1999)) == nil)
        #expect(CurlOutcome.describe(.milliseconds(1500)) == "1.5 s")
        #expect(CurlOutcome.describe(.milliseconds(1050)) == "1.05 s")
        #expect(CurlOutcome.describe(.seconds(2)) == "2 s")
    }

    @Test func httpDatesAreReadByArithmetic() {
        #expect(HTTPDate.secondsSince1970("Thu, 01 Jan 1970 00:00:00 GMT") == 0)
        #expect(HTTPDate.secondsSince1970("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.secondsSince1970("Tue, 29 Feb 2028 23:59:59 GMT") == 1_835_481_599)
        #expect(HTTPDate.secondsSince1970("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
        #expect(HTTPDate.secondsSince1970("Sun, 06 Nov 1994 25:49:37 GMT") == nil)
    }
}
