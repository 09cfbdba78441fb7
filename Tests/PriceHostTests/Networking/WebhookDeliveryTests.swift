import Foundation
@testable import PriceHost
@testable import PriceHostCore
import PriceHostHTTP
import PriceHostTestTraits
import PriceHostTesting
@testable import PriceHostService
import ProviderABI
import Testing

/// serve's webhooks posting through libcurl to receivers on 127.0.0.1: the quote a feed pushes into the
/// stream hub is POSTed signed; retries wait on a ``TestClock``; a dead receiver delays no other.
@Suite(.offThePool, .timeLimit(.minutes(1)))
struct WebhookDeliveryTests {
    /// The deliveries' tasks run here: in the whole suite, tests that block the cooperative pool's two threads
    /// held them for longer than these tests wait (all three failed so, each passing alone).
    static let executor = OwnThreadExecutor()

    /// A hub whose BTC-USD topic is pushed by hand.
    final class Rig: Sendable {
        let clock = TestClock()
        let hub: StreamHub
        let metrics = WebhookMetrics()
        /// What the deliveries said.
        let warnings = LockedBox<[String]>([])
        private let feed = LockedBox<(@Sendable (String, EventID?) -> Void)?>(nil)

        init() {
            hub = StreamHub(source: PushedSource(feed: feed), clock: clock)
        }

        func push(_ amount: String) {
            let quote = #"{"asset":"BTC","currency":"USD","amount":"\#(amount)","provider":"venue","timestamp":"\#(ISO8601Timestamp.format(clock.wallNow))"}"#
            feed.get()?("data: \(quote)\n\n", nil)
        }

        func delivery(to url: String, secret: String? = "s3cret", rule: DeliveryRule = DeliveryRule()) -> WebhookDelivery {
            var hook = WebhookSettings.Hook(url: url, asset: "BTC")
            hook.secret = secret
            hook.rule = rule
            return WebhookDelivery(hook, defaultCurrency: "USD", hub: hub, poster: CurlWebhookPoster(libcurl: LibCurl.defaultName),
                                   clock: clock, metrics: metrics, executor: WebhookDeliveryTests.executor,
                                   warn: { [warnings] line in warnings.update { $0.append(line) } })
        }
    }

    struct PushedSource: StreamSource {
        let feed: LockedBox<(@Sendable (String, EventID?) -> Void)?>
        func push(for topic: StreamHub.TopicKey) -> StreamHub.Push? {
            { deliver in feed.update { $0 = deliver }; return FeedSubscription {} }
        }
        func event(for topic: StreamHub.TopicKey) async -> String { "" }
    }

    /// Waits (at most 10 s, on the real clock) until `done` holds.
    static func eventually(_ done: () -> Bool) async -> Bool {
        for _ in 0..<5_000 {
            if done() { return true }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return done()
    }

    @Test func aPostIsSignedAndRetriedAfterTwo500sUntilItIsAccepted() async throws {
        let rig = Rig()
        defer { rig.hub.stop() }
        let received = LockedBox<[LoopbackHTTPServer.Request]>([])
        let server = try LoopbackHTTPServer { request, previous in
            received.update { $0.append(request) }
            return LoopbackHTTPServer.Reply(status: previous < 2 ? 500 : 200)
        }
        defer { server.stop() }
        let delivery = rig.delivery(to: server.baseURL + "/hook")
        #expect(delivery.start())
        rig.push("64123.45")
        #expect(await Self.eventually { received.get().count == 1 })
        // Retried after 1 s, then 2 s, of the test clock: not before.
        #expect(await rig.clock.waitForTimers(atLeast: 1))
        rig.clock.advance(by: .milliseconds(999))
        try await Task.sleep(for: .milliseconds(50))
        #expect(received.get().count == 1)
        rig.clock.advance(by: .milliseconds(1))
        #expect(await Self.eventually { received.get().count == 2 })
        #expect(await rig.clock.waitForTimers(atLeast: 1))
        rig.clock.advance(by: .seconds(2))
        #expect(await Self.eventually { rig.metrics.total(.delivered) == 1 })
        delivery.stop()
        await delivery.finished()

        let requests = received.get()
        #expect(requests.count == 3)
        #expect(rig.metrics.total(.retried) == 2)
        // Two failures within a minute: one line, naming the answer.
        #expect(rig.warnings.get() == ["webhook: POST \(server.baseURL)/hook: answered 500; retried with backoff for up to 10 minutes (said at most once a minute)"])
        #expect(rig.metrics.total(.failed) == 0)
        for request in requests {
            #expect(request.method == "POST")
            #expect(request.path == "/hook")
            #expect(request.headers["content-type"] == "application/json")
            // The body is the quote object, as the stream's data: line carries it.
            #expect(String(decoding: request.body, as: UTF8.self)
                    == #"{"asset":"BTC","currency":"USD","amount":"64123.45","provider":"venue","timestamp":"2026-11-26T14:20:00Z"}"#)
            // The receiver's check: HMAC-SHA256 of the body it got, under the shared secret.
            #expect(request.headers["x-pricehost-signature"] == "sha256=" + HMACSHA256.hex(of: request.body, key: Array("s3cret".utf8)))
        }
    }

    @Test func aPostFailingForTenMinutesIsDroppedAndCounted() async throws {
        let rig = Rig()
        defer { rig.hub.stop() }
        let server = try LoopbackHTTPServer { _, _ in LoopbackHTTPServer.Reply(status: 503) }
        defer { server.stop() }
        let delivery = rig.delivery(to: server.baseURL + "/down", secret: nil)
        #expect(delivery.start())
        rig.push("100")
        // Each wait is at most a minute; ten minutes of them, and a little more, end the retries.
        for _ in 0..<40 where rig.metrics.total(.failed) == 0 {
            guard await rig.clock.waitForTimers(atLeast: 1, within: .seconds(2)) else { continue }
            rig.clock.advance(by: .seconds(60))
        }
        #expect(await Self.eventually { rig.metrics.total(.failed) == 1 })
        #expect(rig.metrics.total(.delivered) == 0)
        // Not one attempt after the first ten minutes: 1+2+4+8+16+32 s, then a minute at a time.
        #expect(server.requestCount(path: "/down") == rig.metrics.total(.retried) + 1)
        #expect((10...20).contains(rig.metrics.total(.retried)))
        delivery.stop()
        await delivery.finished()
    }

    @Test func aDeadReceiverDoesNotDelayALiveOne() async throws {
        let rig = Rig()
        defer { rig.hub.stop() }
        let dead = try SilentListener()
        let live = try LoopbackHTTPServer { _, _ in LoopbackHTTPServer.Reply(status: 204) }
        defer { live.stop() }
        let stuck = rig.delivery(to: "http://127.0.0.1:\(dead.port)/hook")
        let healthy = rig.delivery(to: live.baseURL + "/hook")
        #expect(stuck.start())
        #expect(healthy.start())
        let started = ContinuousClock.now
        for amount in ["100", "101", "102"] { rig.push(amount) }
        // The dead one's first post waits for its 10 s timeout; the live one has all three long before.
        #expect(await Self.eventually { rig.metrics.total(.delivered) == 3 })
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(live.requestCount(path: "/hook") == 3)
        #expect(rig.metrics.total(.retried) == 0)
        stuck.stop()
        healthy.stop()
        await stuck.finished()
        await healthy.finished()
    }

    @Test func aWebhooksRuleSelectsWhatIsPostedAndItsHeartbeatPostsTheLatestAgain() async throws {
        let rig = Rig()
        defer { rig.hub.stop() }
        let received = LockedBox<[String]>([])
        let server = try LoopbackHTTPServer { request, _ in
            received.update { $0.append(String(decoding: request.body, as: UTF8.self)) }
            return LoopbackHTTPServer.Reply(status: 200)
        }
        defer { server.stop() }
        let delivery = rig.delivery(to: server.baseURL + "/hook", rule: DeliveryRule(deviationBps: 50, heartbeat: .seconds(3600)))
        #expect(delivery.start())
        // Its heartbeat's timer waits on the test clock from the start.
        #expect(await rig.clock.waitForTimers(atLeast: 1))
        for amount in ["100", "100.4", "100.5"] { rig.push(amount) }
        #expect(await Self.eventually { rig.metrics.total(.delivered) == 2 })
        #expect(received.get().map { $0.contains(#""amount":"100""#) } == [true, false])
        #expect(received.get().last?.contains(#""amount":"100.5""#) == true)
        rig.push("100.6")
        // Time for the collecting task to take 100.6 (not posted) first, so that only the heartbeat can wake it
        // again. Either order posts 100.6 below; this one is the one that shows the heartbeat wakes the webhook.
        try await Task.sleep(for: .milliseconds(200))
        // An hour with nothing posted: the latest price (100.6, never posted) goes again.
        rig.clock.advance(by: .seconds(3600))
        #expect(await Self.eventually { rig.metrics.total(.delivered) == 3 })
        #expect(received.get().last?.contains(#""amount":"100.6""#) == true)
        delivery.stop()
        await delivery.finished()
        #expect(received.get().count == 3)
    }
}
