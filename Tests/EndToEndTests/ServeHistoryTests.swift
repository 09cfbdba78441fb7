import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// `GET /v1/history` and the price gauges of `/metrics`: what the instance got, once each, exact in
/// the API and as floats in the exposition; bad parameters refused as `/v1/prices` refuses them.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct ServeHistoryTests {
    /// More digits than a Double holds: the API must keep them all.
    static let amounts = ["64000.123456789012345678", "64001.5", "63999.000000000000000001", "64002.25"]

    /// A file sandbox whose prices file has no timestamps: each quote's time is the file's, new on each rewrite.
    static func sandbox(serve: String = "") throws -> Sandbox {
        try Sandbox(config: configJSON(plugins: ["libFileProvider.so"], extra: serve.isEmpty ? "" : ",\n  \"serve\": \(serve)"),
                    files: ["prices.json": prices(amounts[0])])
    }

    static func prices(_ btc: String) -> String { #"{"BTC-USD": "\#(btc)", "ETH-USD": "3120.48"}"# }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not a JSON object: \(text)")
    }

    /// The quote a `/v1/prices` reply holds for its one asset.
    static func quote(_ reply: HTTPReply) throws -> [String: Any] {
        let array = try #require(try JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [[String: Any]], "\(reply)")
        return try #require(array.first)
    }

    @Test func historyHasEveryQuoteGotInOrderWithItsExactAmountAndTheGaugesTheLast() throws {
        let sandbox = try Self.sandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        var timestamps: [String] = []
        for (index, amount) in Self.amounts.enumerated() {
            // Not a second apart: the history keeps one point per provider per second (the last got in it), which
            // ServeMetricsUnitTests shows on a test clock: every quote a second apart is a point. Here, which of the
            // first three share a second with the next depends on where the seconds turn.
            if index > 0 { try sandbox.directory.write(Self.prices(amount), to: "prices.json") }
            if index == 3 {
                // The Chainlink route's quotes are kept too.
                let reply = try server.post("/", body: #"{"id":"1","data":{"base":"BTC"}}"#)
                #expect(reply.status == 200 && reply.body.contains(#""result":"\#(amount)""#), "\(reply)")
                timestamps.append(try #require(Self.quote(try server.get("/v1/prices?asset=BTC"))["timestamp"] as? String))
                continue
            }
            let reply = try server.get("/v1/prices?asset=BTC")
            let quote = try Self.quote(reply)
            #expect(quote["amount"] as? String == amount, "\(reply)")
            timestamps.append(try #require(quote["timestamp"] as? String))
            // The same quote again (the file unchanged) is the same point, not another.
            #expect(try server.get("/v1/prices?asset=BTC").status == 200)
        }
        // The store (on by default) writes every 100 ms and the instance's memory fills in the last moments, one point per second:
        // asked before the last batch, and again after it, the two answers would differ by the points of that second.
        #expect(try StoreSandbox.waitForWrites(server, atLeast: timestamps.count) >= timestamps.count)
        let reply = try server.get("/v1/history?asset=btc")
        #expect(reply.status == 200)
        #expect(reply.headers["content-type"] == "application/json")
        let expectedPoints = zip(Self.amounts, timestamps).map { amount, timestamp in
            #"{"provider":"file","amount":"\#(amount)","timestamp":"\#(timestamp)","source":"rest"}"#
        }
        // Each with its exact amount and time, in order, and the last one (by the Chainlink route) always.
        let possibleBodies = (0..<8).map { kept in
            let points = expectedPoints.indices.filter { $0 == 3 || kept & (1 << $0) != 0 }.map { expectedPoints[$0] }
            return #"{"asset":"BTC","currency":"USD","minutes":15,"points":["# + points.joined(separator: ",") + "]}"
        }
        #expect(possibleBodies.contains(reply.body), "\(reply)")
        // Filtered by provider, over one minute: the same; another pair, or another currency: none.
        #expect(try server.get("/v1/history?asset=BTC&provider=file&minutes=1&currency=usd").body == reply.body.replacingOccurrences(of: #""minutes":15"#, with: #""minutes":1"#))
        #expect(try server.get("/v1/history?asset=ETH").body == #"{"asset":"ETH","currency":"USD","minutes":15,"points":[]}"#)
        #expect(try server.get("/v1/history?asset=BTC&currency=EUR").body == #"{"asset":"BTC","currency":"EUR","minutes":15,"points":[]}"#)

        let metrics = try server.get("/metrics").body
        let last = try #require(timestamps.last.flatMap { ISO8601DateFormatter.withMilliseconds.date(from: $0) ?? ISO8601DateFormatter().date(from: $0) })
        let labels = #"{asset="BTC",currency="USD",provider="file"}"#
        let lines = metrics.split(separator: "\n").map(String.init)
        let amount = try #require(lines.first { $0.hasPrefix("pricehost_quote_amount\(labels) ") }, "\(metrics)")
        #expect(Double(amount.split(separator: " ")[1]) == Double(Self.amounts[3]))
        let time = try #require(lines.first { $0.hasPrefix("pricehost_quote_timestamp_seconds\(labels) ") }, "\(metrics)")
        let seconds = try #require(Double(time.split(separator: " ")[1]))
        #expect(abs(seconds - last.timeIntervalSince1970) < 0.0015, "\(time) vs \(timestamps)")
        #expect(lines.contains("pricehost_quote_series_evicted_total 0"))
        // Python's prometheus_client reads the same values.
        if let samples = try PrometheusClientParser.samples(metrics, suite: "ServeHistoryTests") {
            let amounts = samples.filter { $0.name == "pricehost_quote_amount" }
            #expect(amounts.count == 1 && amounts.first?.labels == ["asset": "BTC", "currency": "USD", "provider": "file"], "\(amounts)")
            #expect(amounts.first?.value == Double(Self.amounts[3]))
            #expect(samples.first { $0.name == "pricehost_quote_timestamp_seconds" }?.value == seconds)
        }
    }

    @Test func badParametersAreThe400OfTheOtherRoutes() throws {
        let sandbox = try Self.sandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        // The same input gets the same refusal as from /v1/prices.
        for query in ["asset=../x", "", "asset=BTC&currency=%24%24", "asset=BTC&provider=Nope", "asset=BTC&provider=nope",
                      "asset=BTC&provider=file,file", "asset=BTC&currency=EUR&currency=USD"] {
            let prices = try server.get("/v1/prices?\(query)")
            let history = try server.get("/v1/history?\(query)")
            #expect(history.status == 400 && history.status == prices.status, "\(query): \(history)")
            #expect(history.body == prices.body, "\(query)")
            #expect(history.headers["content-type"] == "application/json")
        }
        for (query, error) in [
            ("asset=../x", #"asset \"../x\" is not an asset code (2 to 10 letters or digits)"#),
            ("asset=BTC&minutes=0", #"minutes must be a whole number from 1 to 10080, not \"0\""#),
            ("asset=BTC&minutes=10081", #"minutes must be a whole number from 1 to 10080, not \"10081\""#),
            ("asset=BTC&minutes=1.5", #"minutes must be a whole number from 1 to 10080, not \"1.5\""#),
            ("asset=BTC&minutes=%2B5", #"minutes must be a whole number from 1 to 10080, not \"+5\""#),
            ("asset=BTC&minutes=99999999999999999999", #"minutes must be a whole number from 1 to 10080, not \"99999999999999999999\""#),
            ("asset=BTC&minutes=5&minutes=6", "parameter minutes is given twice"),
            ("asset=BTC,ETH", "history takes one asset, not 2; ask once per asset"),
            ("asset=BTC&interval=5", #"unknown parameter \"interval\"; this route takes asset, currency, provider, minutes"#),
            ("asset=BTC&aggregate=median", #"unknown parameter \"aggregate\"; this route takes asset, currency, provider, minutes"#),
        ] {
            let reply = try server.get("/v1/history?\(query)")
            #expect(reply.status == 400, "\(query): \(reply)")
            #expect(reply.body == #"{"error":"\#(error)"}"#, "\(query)")
        }
        #expect(try server.post("/v1/history?asset=BTC", body: "{}").headers["allow"] == "GET, HEAD")
        #expect(try server.get("/v2/history").body.contains("/v1/prices, /v1/stream, /v1/history, /v1/candles, /v1/price, /v1/twap, /v1/board, POST /"))
        // Still serving.
        #expect(try server.get("/v1/history?asset=BTC").status == 200)
    }
}

extension ISO8601DateFormatter {
    /// `2026-11-20T12:00:00.123Z`.
    static var withMilliseconds: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}

/// Python's `prometheus_client` reading an exposition: its samples, or `nil` (having printed why) when it is not installed.
enum PrometheusClientParser {
    struct Sample {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    static func samples(_ text: String, suite: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [Sample]? {
        guard let probe = try? CommandRunner.run("/usr/bin/env", ["python3", "-c", "import prometheus_client"]), probe.status == 0 else {
            print("\(suite): skipped the prometheus_client check: Python's prometheus_client is not installed (pip install prometheus_client)")
            return nil
        }
        let script = """
            import json, sys
            from prometheus_client.parser import text_string_to_metric_families
            samples = []
            for family in text_string_to_metric_families(sys.stdin.read()):
                for sample in family.samples:
                    samples.append([sample.name, sample.labels, repr(sample.value)])
            print(json.dumps(samples))
            """
        let input = try TemporaryDirectory()
        defer { input.remove() }
        let path = try input.write(text, to: "metrics.txt")
        let parsed = try CommandRunner.run("/bin/sh", ["-c", "python3 -c \"$0\" < '\(path)'", script])
        #expect(parsed.status == 0, "prometheus_client refused the exposition: \(parsed)\n\(text)", sourceLocation: sourceLocation)
        guard parsed.status == 0,
              let rows = try JSONSerialization.jsonObject(with: Data(parsed.standardOutput.utf8)) as? [[Any]] else { return [] }
        return rows.compactMap { row in
            guard row.count == 3, let name = row[0] as? String, let labels = row[1] as? [String: String],
                  let value = (row[2] as? String).flatMap(Double.init) else { return nil }
            return Sample(name: name, labels: labels, value: value)
        }
    }
}
