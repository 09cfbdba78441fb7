import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// `serve`'s delivery rules end to end: `/v1/stream`'s `deviationBps`, `heartbeatSeconds` and `maxAgeSeconds`,
/// and a `webhooks` entry posting signed quotes to a receiver on 127.0.0.1.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct ServeDeliveryRuleTests {
    @Test func anUnchangedPriceComesOnlyAsTheHeartbeat() throws {
        let sandbox = try ServeTests.fileSandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let connection = try server.connect()
        // The file's price never moves: after the first, only the heartbeat brings it, once a second, not each 0.2 s tick.
        let started = Date()
        try connection.send("GET /v1/stream?asset=BTC&interval=0.2&deviationBps=25&heartbeatSeconds=1 HTTP/1.1\r\nHost: x\r\n\r\n")
        let events = ServeStreamTests.events(try connection.read(until: "\n\n", count: 3))
        let elapsed = Date().timeIntervalSince(started)
        #expect(events.count == 3, "\(events)")
        #expect(events.allSatisfy { withoutAges($0.rest) == "data: \(ServeTests.btc)" }, "\(events)")
        // Each is the topic's latest event, with its own id: later ticks' ids, not repeats of the first.
        #expect(Set(events.map(\.id)).count == 3, "\(events)")
        #expect(elapsed >= 1.9 && elapsed < 10, "\(elapsed)")
    }

    @Test func aQuoteOlderThanMaxAgeIsAStaleEventOnce() throws {
        // serve's comment heartbeat after 1 s of silence ends the read: five ticks came meanwhile, and no second stale event.
        let sandbox = try ServeTests.fileSandbox(serve: #"{"heartbeatSeconds": 1}"#)
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let connection = try server.connect()
        // The file's quote is from 2026-11-20: older than 30 s.
        try connection.send("GET /v1/stream?asset=BTC&interval=0.2&maxAgeSeconds=30 HTTP/1.1\r\nHost: x\r\n\r\n")
        let events = ServeStreamTests.events(try connection.read(until: "\n\n", count: 2))
        #expect(events.count == 1, "\(events)")
        #expect(events.first?.id == nil)
        #expect(events.first?.rest.hasPrefix(#"event: stale\#ndata: {"asset":"BTC","currency":"USD","ageMs":"#) == true, "\(events)")
        #expect(events.first?.rest.hasSuffix(#","maxAgeMs":30000}"#) == true, "\(events)")
    }

    @Test(arguments: [("deviationBps=x", #"deviationBps must be a number of basis points from 0 to 10000, not \"x\""#),
                      ("heartbeatSeconds=0", #"heartbeatSeconds must be a number of seconds from 1 to 86400 (at most 3 decimals), not \"0\""#),
                      ("maxAgeSeconds=-1", #"maxAgeSeconds must be a number of seconds above 0, up to 999999 (at most 3 decimals), not \"-1\""#)])
    func aBadRuleIs400(parameter: String, message: String) throws {
        let sandbox = try ServeTests.fileSandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let reply = try server.get("/v1/stream?asset=BTC&\(parameter)")
        #expect(reply.status == 400)
        #expect(reply.body.contains(message), "\(reply)")
    }

    @Test func aWebhookPostsTheQuoteSignedWithItsSecret() throws {
        let received = LockedBox<[LoopbackHTTPServer.Request]>([])
        let receiver = try LoopbackHTTPServer { request, _ in
            received.update { $0.append(request) }
            return .init(status: 204)
        }
        defer { receiver.stop() }
        let hook = #"[{"url": "\#(receiver.baseURL)/hook", "asset": "BTC", "intervalSeconds": 0.2, "deviationBps": 50, "heartbeatSeconds": 3600, "secret": "${HOOK_SECRET}"}]"#
        let sandbox = try Sandbox(config: configJSON(plugins: ["libFileProvider.so"], extra: ",\n  \"webhooks\": \(hook)"),
                                  files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox, environment: ["HOOK_SECRET": "correct horse"])
        defer { server.stop() }
        for _ in 0..<500 where received.get().isEmpty { Thread.sleep(forTimeInterval: 0.02) }
        // Unchanged, the price is posted once (its heartbeat is an hour away), not each 0.2 s tick.
        Thread.sleep(forTimeInterval: 0.6)
        let requests = received.get()
        #expect(requests.count == 1, "\(requests)")
        let request = try #require(requests.first)
        #expect(request.method == "POST")
        let body = String(decoding: request.body, as: UTF8.self)
        #expect(withoutAges(body) == ServeTests.btc)
        #expect(ageMilliseconds(in: body).count == 1)
        // Checked as a receiver would, over the bytes received, with another HMAC-SHA256 than pricehost's: Python's.
        let python = try CommandRunner.run("/usr/bin/env", ["python3", "-c",
            "import hmac,hashlib,sys; print('sha256=' + hmac.new(b'correct horse', sys.argv[1].encode(), hashlib.sha256).hexdigest())", body],
            environment: [:], currentDirectory: sandbox.directory.path, timeout: 20)
        #expect(request.headers["x-pricehost-signature"] == python.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        let metrics = try server.get("/metrics")
        #expect(metrics.body.contains("pricehost_webhook_deliveries_total{outcome=\"delivered\"} 1\n"), "\(metrics.body)")
        #expect(metrics.body.contains("pricehost_webhook_delivery_seconds_count 1\n"), "\(metrics.body)")
    }

    @Test func aWebhookSecretWhoseVariableIsUnsetStopsServeNotFetch() throws {
        let hook = #"[{"url": "http://127.0.0.1:9/hook", "asset": "BTC", "secret": "${HOOK_SECRET}"}]"#
        let sandbox = try Sandbox(config: configJSON(plugins: ["libFileProvider.so"], extra: ",\n  \"webhooks\": \(hook)"),
                                  files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        #expect(try sandbox.run(["fetch", "--asset", "BTC"]).status == 0)
        let served = try sandbox.run(["serve", "--listen", "127.0.0.1:0"], timeout: 30)
        #expect(served.status == 3)
        #expect(served.standardError.contains("webhooks[0].secret: environment variable HOOK_SECRET is not set"), "\(served)")
    }
}
