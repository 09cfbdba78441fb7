import ConcurrencyHelpers
import Foundation
import Injection
import PriceHostTesting
@testable import PriceHost
@testable import PriceHostHTTP
@testable import PriceHostCore
import ProviderABI
import Testing

/// A transport that answers from a script, one entry per attempt, and records the attempts.
final class ScriptedNetworking: Networking {
    // Locks that ThreadSanitizer can see hand over (see `Lock`); this runs in CI's TSan step.
    private let script: Lock<[Result<HTTPResponse, ProviderError>]>
    private let attempts = Lock<[(HTTPRequest, Int)]>([])

    init(_ script: [Result<HTTPResponse, ProviderError>]) {
        self.script = Lock(script)
    }

    var attemptCount: Int { attempts.withLock { $0.count } }
    var limits: [Int] { attempts.withLock { $0.map(\.1) } }
    var timeouts: [Duration?] { attempts.withLock { $0.map(\.0.timeout) } }

    func get(_ request: HTTPRequest, options: TransferOptions) async throws -> HTTPResponse {
        attempts.withLock { $0.append((request, options.maxResponseBytes)) }
        let next = script.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        guard let next else { throw ProviderError(.unavailable, "script ran out") }
        return try next.get()
    }
}

struct ProviderHTTPClientTests {
    let request = HTTPRequest(url: "http://127.0.0.1:9/spot")
    let sleeps = LockedBox<[Duration]>([])

    func client(_ transport: ScriptedNetworking, policy: ProviderPolicy = ProviderPolicy()) -> ProviderHTTPClient {
        ProviderHTTPClient(transport: transport, policy: policy) { [sleeps] duration in sleeps.update { $0.append(duration) } }
    }

    static func response(_ status: Int, _ headers: [HTTPHeader] = []) -> Result<HTTPResponse, ProviderError> {
        .success(HTTPResponse(status: status, headers: headers))
    }

    @Test func successIsReturnedAfterOneAttemptWithThePolicysCapAndTimeout() async throws {
        let transport = ScriptedNetworking([Self.response(200)])
        var policy = ProviderPolicy()
        policy.maxResponseBytes = 4096
        policy.timeout = .seconds(2)
        let response = try await client(transport, policy: policy).get(HTTPRequest(url: request.url, timeout: .seconds(30)))
        #expect(response.status == 200)
        #expect(transport.limits == [4096])
        #expect(transport.timeouts == [.seconds(2)])
    }

    @Test(arguments: [400, 401, 403, 404, 422])
    func clientErrorsAreNeverRetried(status: Int) async throws {
        let transport = ScriptedNetworking([Self.response(status), Self.response(200)])
        #expect(try await client(transport).get(request).status == status)
        #expect(transport.attemptCount == 1)
    }

    @Test func serverErrorsAreRetriedUpToMaxAttemptsThenReturned() async throws {
        let transport = ScriptedNetworking([Self.response(500), Self.response(502), Self.response(503), Self.response(200)])
        #expect(try await client(transport).get(request).status == 503)
        #expect(transport.attemptCount == 3)
        let steps = sleeps.get()
        #expect(steps.count == 2)
        #expect((Duration.milliseconds(125)...Duration.milliseconds(250)).contains(steps[0]))
        #expect((Duration.milliseconds(250)...Duration.milliseconds(500)).contains(steps[1]))
    }

    @Test func anAnswerThePluginCallsRetryableIsRetriedLikeA503WithinMaxAttempts() async throws {
        let busy = HTTPResponse(status: 200, body: Array(#"{"error":["EService:Busy"]}"#.utf8))
        let transport = ScriptedNetworking([.success(busy), .success(HTTPResponse(status: 200)), Self.response(200)])
        let isBusy: @Sendable (HTTPResponse) -> Bool = { !$0.body.isEmpty }
        #expect(try await client(transport).get(request, retryingWhen: isBusy).body.isEmpty)
        #expect(transport.attemptCount == 2)

        let alwaysBusy = ScriptedNetworking([.success(busy), .success(busy), .success(busy), Self.response(200)])
        #expect(try await client(alwaysBusy).get(request, retryingWhen: isBusy) == busy)
        #expect(alwaysBusy.attemptCount == 3)

        // Without the predicate the same 200 is an answer.
        let plain = ScriptedNetworking([.success(busy), Self.response(200)])
        #expect(try await client(plain).get(request) == busy)
        #expect(plain.attemptCount == 1)
    }

    @Test func retryAfterIsHonouredUpToTheCap() async throws {
        let transport = ScriptedNetworking([Self.response(429, [HTTPHeader("Retry-After", "7")]), Self.response(200)])
        #expect(try await client(transport).get(request).status == 200)
        #expect(sleeps.get() == [.seconds(7)])

        let impatient = ScriptedNetworking([Self.response(429, [HTTPHeader("Retry-After", "3600")]), Self.response(200)])
        #expect(try await client(impatient).get(request).status == 429)
        #expect(impatient.attemptCount == 1)
    }

    @Test func timeoutsAndConnectionFailuresAreRetriedAndSayHowManyAttempts() async {
        let transport = ScriptedNetworking([
            .failure(ProviderError(.timeout, "GET x: no complete answer within 10 s")),
            .failure(ProviderError(.unavailable, "GET x: connection refused")),
        ])
        var policy = ProviderPolicy()
        policy.maxAttempts = 2
        await #expect(throws: ProviderError(.unavailable, "GET x: connection refused (after 2 attempts)")) {
            try await client(transport, policy: policy).get(request)
        }
        #expect(transport.attemptCount == 2)
    }

    @Test func oversizedAnswerIsNotRetried() async {
        let transport = ScriptedNetworking([.failure(ProviderError(.responseTooLarge, "too big")), Self.response(200)])
        await #expect(throws: ProviderError(.responseTooLarge, "too big (after 1 attempt)")) { try await client(transport).get(request) }
        #expect(transport.attemptCount == 1)
    }

    @Test func retryAfterReadsSecondsAndHTTPDates() {
        let now = 1_763_640_000  // Thu, 20 Nov 2025 12:00:00 GMT
        func after(_ value: String) -> Duration? {
            ProviderHTTPClient.retryAfter(HTTPResponse(status: 429, headers: [HTTPHeader("Retry-After", value)]), now: now)
        }
        #expect(after("120") == .seconds(120))
        #expect(after("Thu, 20 Nov 2025 12:00:30 GMT") == .seconds(30))
        #expect(after("Thu, 20 Nov 2025 11:00:00 GMT") == .zero)
        #expect(after("soon") == nil)
        #expect(after("-5") == nil)
        #expect(after("Thu, 20 Nov 2025 12:00:30") == nil)
        #expect(after("Thu, 31 Foo 2025 12:00:30 GMT") == nil)
    }

    @Test func redirectsAndTheCAFileReachTheTransportOnlyAsThePolicySays() async throws {
        let transport = ScriptedNetworking([Self.response(200)])
        var policy = ProviderPolicy()
        #expect(policy.transferOptions == TransferOptions(maxResponseBytes: 1 << 20, maxRedirects: 0, caFile: nil))
        policy.followRedirects = true
        policy.caFile = "/etc/ssl/private-ca.pem"
        #expect(policy.transferOptions == TransferOptions(maxResponseBytes: 1 << 20, maxRedirects: 3, caFile: "/etc/ssl/private-ca.pem"))
        _ = try await client(transport, policy: policy).get(request)
    }

    /// The seeds' swap: the real policy over a simulated transport, through a child container.
    @Test func childContainerSwapsTheTransportUnderTheRealPolicy() async throws {
        let config = try ConfigParser.parse(Array(#"{"providers": {"coinbase": {"maxAttempts": 2}}}"#.utf8),
                                            path: "/etc/pricehost/plugins.json", environment: [:])
        let parent = CompositionRoot.makeContainer(config: config, diagnostics: Diagnostics(sink: { _ in }))
        let transport = ScriptedNetworking([Self.response(503), Self.response(200)])
        let child = Container(parent: parent)
        child.register(Networking.self, scope: .singleton) { _ in transport }

        let client = CompositionRoot.httpClient(for: "coinbase", in: child)
        let policy = try #require(client as? ProviderHTTPClient).policy
        #expect(policy.maxAttempts == 2)
        #expect(try #require(client as? ProviderHTTPClient).transport is ScriptedNetworking)
        #expect(try #require(CompositionRoot.httpClient(for: "coinbase", in: parent) as? ProviderHTTPClient).transport is CurlTransport)
    }
}
