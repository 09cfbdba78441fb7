import Foundation
import PriceHostTesting
import Testing

/// `examples/grafana-dashboard.json`: a dashboard Grafana can import, on a Prometheus data source,
/// whose every query names only metrics a real `serve` exposes (one that quoted, fetched, failed
/// a fetch and ran a feed).
@Suite(.timeLimit(.minutes(2)))
struct GrafanaDashboardTests {
    static let path = BuiltProducts.packageRoot + "/examples/grafana-dashboard.json"

    /// The dashboard's PromQL: every panel's targets, and the metric of each `label_values(…)` variable.
    static func expressions(_ dashboard: [String: Any]) throws -> [String] {
        var found: [String] = []
        let panels = try #require(dashboard["panels"] as? [[String: Any]])
        for panel in panels {
            let targets = try #require(panel["targets"] as? [[String: Any]], "panel \(panel["title"] ?? "?") has no targets")
            for target in targets { found.append(try #require(target["expr"] as? String, "\(target)")) }
        }
        let variables = (dashboard["templating"] as? [String: Any])?["list"] as? [[String: Any]] ?? []
        for variable in variables where variable["type"] as? String == "query" {
            let definition = try #require(variable["definition"] as? String)
            let inner = try #require(definition.firstMatch(of: #/^label_values\((.+),\s*[a-z_]+\)$/#), "\(definition)")
            found.append(String(inner.1))
        }
        return found
    }

    /// The metric names `expression` selects: identifiers left once label matchers, ranges, grouping
    /// clauses, functions (a name before `(`), keywords, numbers and Grafana's `$variables` are set aside.
    static func metricNames(in expression: String) -> Set<String> {
        var text = expression
        for pattern in [#"\{[^}]*\}"#, #"\[[^\]]*\]"#, #"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)"#, #""[^"]*""#] {
            text = text.replacingOccurrences(of: pattern, with: " ", options: .regularExpression)
        }
        let keywords: Set<String> = ["and", "or", "unless", "bool", "offset", "by", "without", "on", "ignoring", "group_left", "group_right", "inf", "nan"]
        let characters = Array(text)
        func isNameCharacter(_ character: Character) -> Bool { character.isASCII && (character.isLetter || character.isNumber || character == "_" || character == ":") }
        var names = Set<String>()
        var index = 0
        while index < characters.count {
            // A name starts with a letter, '_' or ':' not just after a name, a number ("1e4") or '$' (Grafana's variables).
            guard isNameCharacter(characters[index]), !characters[index].isNumber,
                  index == 0 || !(isNameCharacter(characters[index - 1]) || characters[index - 1] == "." || characters[index - 1] == "$") else {
                index += 1
                continue
            }
            var end = index
            while end < characters.count, isNameCharacter(characters[end]) { end += 1 }
            let name = String(characters[index..<end])
            let next = characters[end...].first { $0 != " " }
            if next != "(" && !keywords.contains(name.lowercased()) { names.insert(name) }
            index = end
        }
        return names
    }

    @Test func theNameExtractionSeesMetricsNotFunctionsLabelsOrNumbers() {
        #expect(Self.metricNames(in: #"histogram_quantile(0.95, sum by (le, provider) (rate(a_bucket{x="y"}[$__rate_interval])))"#) == ["a_bucket"])
        #expect(Self.metricNames(in: "(max by (asset) (m{a=~\"$asset\"}) - min without (p) (n)) / avg(o) * 1e4 + time() - p offset 5m") == ["m", "n", "o", "p"])
        #expect(Self.metricNames(in: "x and on (a) y unless bool z") == ["x", "y", "z"])
    }

    @Test func theDashboardIsJSONOnAPrometheusDataSourceWithTheFourPanels() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.path))
        let dashboard = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(dashboard["title"] as? String == "pricehost")
        #expect((dashboard["schemaVersion"] as? Int).map { $0 >= 36 } == true)
        let variables = try #require((dashboard["templating"] as? [String: Any])?["list"] as? [[String: Any]])
        #expect(variables.contains { $0["type"] as? String == "datasource" && $0["query"] as? String == "prometheus" && $0["name"] as? String == "datasource" })
        let panels = try #require(dashboard["panels"] as? [[String: Any]])
        var ids = Set<Int>()
        for panel in panels {
            let source = panel["datasource"] as? [String: Any]
            #expect(source?["type"] as? String == "prometheus" && source?["uid"] as? String == "${datasource}", "\(panel["title"] ?? "?")")
            #expect(panel["gridPos"] is [String: Any])
            #expect(ids.insert(try #require(panel["id"] as? Int)).inserted, "two panels share an id")
        }
        let expressions = try Self.expressions(dashboard)
        // A price panel, a spread panel, per-provider fetch errors, the feeds' state.
        #expect(expressions.contains { $0.hasPrefix("pricehost_quote_amount{") })
        #expect(expressions.contains { $0.contains("max by (asset, currency) (pricehost_quote_amount") && $0.contains("min by (asset, currency) (pricehost_quote_amount") })
        #expect(expressions.contains { $0.contains(#"pricehost_upstream_fetches_total{outcome="failure"}"#) && $0.contains("by (provider)") })
        #expect(expressions.contains { $0 == "pricehost_stream_state" })
    }

    @Test func everyMetricTheDashboardQueriesIsInTheExposition() async throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.path))
        let dashboard = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let names = try Self.expressions(dashboard).reduce(into: Set<String>()) { $0.formUnion(Self.metricNames(in: $1)) }
        #expect(names.count >= 7, "\(names.sorted())")
        guard await StreamVenue.available(for: "GrafanaDashboardTests.\(#function)") else { return }
        let venue = try await StreamServeTests.venue(count: 40, every: 0.2)
        defer { venue.stop() }
        let rest = try LoopbackHTTPServer { request, _ in
            request.path.contains("BTC") ? .init(body: CoinbaseTests.spot("BTC", "USD", "64000.5"))
                : .init(status: 404, body: CoinbaseTests.errors("not_found", "Invalid base currency"))
        }
        defer { rest.stop() }
        let sandbox = try StreamSandbox(provider: "coinbase", plugin: "libCoinbaseProvider.so", streamURL: venue.url(), restURL: rest.baseURL)
        defer { sandbox.remove() }
        try await offThePool {
            let server = try ServeProcess(sandbox.sandbox)
            defer { server.stop() }
            // Two topics of one pair: the feed's updates reach both; the history keeps each once.
            let clients = try ["asset=BTC", "asset=BTC&interval=1"].map { try StreamServeTests.subscribe(server, $0) }
            for client in clients { _ = try client.read(until: "64000.04", count: 1) }
            #expect(try server.get("/v1/prices?asset=BTC").status == 200)
            #expect(try server.get("/v1/prices?asset=DOGE").status == 502)
            let exposition = try server.get("/metrics").body
            let lines = exposition.split(separator: "\n")
            let samples = Set(lines.filter { !$0.hasPrefix("#") }.map { String($0.prefix { $0 != "{" && $0 != " " }) })
            let histograms = Set(lines.filter { $0.hasPrefix("# TYPE ") && $0.hasSuffix(" histogram") }.map { String($0.split(separator: " ")[2]) })
            let typed = Set(lines.filter { $0.hasPrefix("# TYPE ") }.map { String($0.split(separator: " ")[2]) })
            for name in names.sorted() {
                #expect(samples.contains(name), "the dashboard queries \(name), which has no sample in:\n\(exposition)")
                let family = ["_bucket", "_sum", "_count"].first { name.hasSuffix($0) && histograms.contains(String(name.dropLast($0.count))) }
                    .map { String(name.dropLast($0.count)) } ?? name
                #expect(typed.contains(family), "\(name) is of no typed family")
            }
            try ServeMetricsTests.expectAParserAccepts(exposition, suite: "GrafanaDashboardTests")
            // The pushed quotes are in the history, each once, marked as streamed.
            let history = try server.get("/v1/history?asset=BTC&provider=coinbase").body
            let object = try #require(try JSONSerialization.jsonObject(with: Data(history.utf8)) as? [String: Any])
            let points = try #require(object["points"] as? [[String: String]], "\(history)")
            let streamed = points.filter { $0["source"] == "stream" }
            #expect(!streamed.isEmpty, "\(history)")
            #expect(Set(streamed.compactMap { $0["timestamp"] }).count == streamed.count, "a pushed update kept twice: \(history)")
        }
    }
}
