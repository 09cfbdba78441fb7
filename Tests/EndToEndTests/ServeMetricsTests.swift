import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// `GET /metrics`: Prometheus text format 0.0.4 that a real parser accepts, with the counts the traffic implies.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct ServeMetricsTests {
    /// A parser of the text format installed on this machine: promtool, else Python's prometheus_client.
    static func parserCommand() -> (String, [String])? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let promtool = "\(directory)/promtool"
            if FileManager.default.isExecutableFile(atPath: promtool) { return (promtool, ["check", "metrics"]) }
        }
        let script = """
            import sys
            from prometheus_client.parser import text_string_to_metric_families
            families = list(text_string_to_metric_families(sys.stdin.read()))
            print(len(families), "families")
            """
        guard let probe = try? CommandRunner.run("/usr/bin/env", ["python3", "-c", "import prometheus_client"]), probe.status == 0 else { return nil }
        return ("/usr/bin/env", ["python3", "-c", script])
    }

    @Test func metricsPassARealParserAndCountWhatHappened() throws {
        let upstream = try LoopbackHTTPServer { request, _ in
            request.path.contains("BTC") ? .init(body: CoinbaseTests.spot("BTC", "USD", "1.5")) : .init(status: 404, body: CoinbaseTests.errors("not_found", "Invalid base currency"))
        }
        defer { upstream.stop() }
        let sandbox = try Sandbox(config: """
            {"plugins": ["libCoinbaseProvider.so", "libFileProvider.so"],
             "providers": {"coinbase": {"baseURL": "\(upstream.baseURL)", "maxAttempts": 1, "requestsPerSecond": 100},
                           "file": {"path": "prices.json"}},
             "defaults": {"provider": "coinbase"}}
            """, files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        #expect(try server.get("/v1/prices?asset=BTC").status == 200)
        #expect(try server.get("/v1/prices?asset=DOGE").status == 502)
        #expect(try server.get("/v1/prices?asset=..").status == 400)
        #expect(try server.get("/nowhere").status == 404)
        let reply = try server.get("/metrics")
        #expect(reply.status == 200)
        #expect(reply.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        let text = reply.body
        for line in [
            #"pricehost_http_requests_total{route="prices",status="200"} 1"#,
            #"pricehost_http_requests_total{route="prices",status="502"} 1"#,
            #"pricehost_http_requests_total{route="prices",status="400"} 1"#,
            #"pricehost_http_requests_total{route="unknown",status="404"} 1"#,
            #"pricehost_upstream_fetches_total{provider="coinbase",outcome="success"} 1"#,
            #"pricehost_upstream_fetches_total{provider="coinbase",outcome="failure"} 1"#,
            #"pricehost_upstream_fetch_duration_seconds_bucket{provider="coinbase",le="+Inf"} 2"#,
            #"pricehost_upstream_fetch_duration_seconds_count{provider="coinbase"} 2"#,
            #"pricehost_rate_limit_waits_total{provider="coinbase"} 0"#,
            "pricehost_sse_clients 0",
            #"pricehost_plugin_info{provider="coinbase",version="1.0.0"} 1"#,
            #"pricehost_plugin_info{provider="file",version="1.0.0"} 1"#,
            #"pricehost_build_info{version="0.1.0",plugin_abi="1.4"} 1"#,
            "# TYPE pricehost_upstream_fetch_duration_seconds histogram",
            "# TYPE pricehost_coalesced_requests_total counter",
            "# TYPE pricehost_cache_hits_total counter",
            "# TYPE pricehost_cache_misses_total counter",
        ] {
            #expect(text.split(separator: "\n").contains(Substring(line)), "missing \(line) in:\n\(text)")
        }
        let open = text.split(separator: "\n").first { $0.hasPrefix("pricehost_open_connections ") }.flatMap { Int($0.split(separator: " ")[1]) }
        #expect((open ?? 0) >= 1, "the metrics request's own connection is open: \(String(describing: open))")
        // A single instance has no fleet to report on (ServeFleetTests check the fleet's families).
        #expect(!text.contains("pricehost_shared_") && !text.contains("pricehost_redis_"), "\(text)")
        try Self.expectAParserAccepts(text, suite: "ServeMetricsTests")
    }

    /// Runs the installed parser on `text` and expects it to accept it; prints why not when there is none.
    static func expectAParserAccepts(_ text: String, suite: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard let (parser, arguments) = parserCommand() else {
            print("\(suite): skipped the parser check: neither promtool (Debian package prometheus) nor Python's prometheus_client (pip install prometheus_client) is installed")
            return
        }
        let input = try TemporaryDirectory()
        defer { input.remove() }
        let path = try input.write(text, to: "metrics.txt")
        let checked = try CommandRunner.run("/bin/sh", ["-c", "\"$0\" \"$@\" < '\(path)'", parser] + arguments)
        #expect(checked.status == 0, "\(parser) \(arguments) refused the exposition: \(checked)\n\(text)", sourceLocation: sourceLocation)
        #expect(!checked.standardOutput.contains("error") && !checked.standardError.contains("error"), "\(checked)", sourceLocation: sourceLocation)
    }

    @Test func aRequestThatWaitsForTheBudgetIsCounted() throws {
        let upstream = try LoopbackHTTPServer { request, _ in
            .init(body: CoinbaseTests.spot(request.path.contains("BTC") ? "BTC" : "ETH", "USD", "2"))
        }
        defer { upstream.stop() }
        let sandbox = try Sandbox(config: """
            {"plugins": ["libCoinbaseProvider.so"],
             "providers": {"coinbase": {"baseURL": "\(upstream.baseURL)", "maxAttempts": 1, "requestsPerSecond": 2, "burst": 1}},
             "defaults": {"provider": "coinbase"}}
            """)
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        // Two pairs at once, one token: the second request waits about half a second.
        #expect(try server.get("/v1/prices?asset=BTC,ETH").status == 200)
        let text = try server.get("/metrics").body
        #expect(text.split(separator: "\n").contains(#"pricehost_rate_limit_waits_total{provider="coinbase"} 1"#), "\(text)")
    }
}
