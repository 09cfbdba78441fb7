@testable import PriceHostCore
@testable import PriceHostService
import Testing

/// The exposition's shape: cumulative buckets, escaped labels, every family typed.
struct ServeMetricsUnitTests {
    @Test func bucketsAreCumulativeAndCountEveryFetch() {
        let metrics = ServeMetrics()
        metrics.fetched(provider: "p", succeeded: true, duration: .milliseconds(3))
        metrics.fetched(provider: "p", succeeded: false, duration: .milliseconds(300))
        metrics.fetched(provider: "p", succeeded: true, duration: .seconds(60))
        let lines = metrics.exposition(plugins: [], rateLimitWaits: [:], openConnections: 0).split(separator: "\n").map(String.init)
        #expect(lines.contains(#"pricehost_upstream_fetch_duration_seconds_bucket{provider="p",le="0.005"} 1"#))
        #expect(lines.contains(#"pricehost_upstream_fetch_duration_seconds_bucket{provider="p",le="0.25"} 1"#))
        #expect(lines.contains(#"pricehost_upstream_fetch_duration_seconds_bucket{provider="p",le="0.5"} 2"#))
        #expect(lines.contains(#"pricehost_upstream_fetch_duration_seconds_bucket{provider="p",le="10.0"} 2"#))
        #expect(lines.contains(#"pricehost_upstream_fetch_duration_seconds_bucket{provider="p",le="+Inf"} 3"#))
        #expect(lines.contains(#"pricehost_upstream_fetch_duration_seconds_count{provider="p"} 3"#))
        #expect(lines.contains(#"pricehost_upstream_fetches_total{provider="p",outcome="failure"} 1"#))
        #expect(lines.contains(#"pricehost_upstream_fetches_total{provider="p",outcome="success"} 2"#))
    }

    @Test func labelValuesAreEscaped() {
        #expect(PrometheusText.escaped(#"a"b\c"# + "\nd") == #"a\"b\\c\nd"#)
        let text = ServeMetrics().exposition(plugins: [(provider: "x", version: "1.0 \"beta\"")], rateLimitWaits: [:], openConnections: 0)
        #expect(text.contains(#"pricehost_plugin_info{provider="x",version="1.0 \"beta\""} 1"#))
    }

    @Test func everySampleBelongsToATypedFamily() {
        let metrics = ServeMetrics()
        metrics.request(route: "prices", status: 200)
        metrics.cacheHit(provider: "p")
        metrics.cacheMiss(provider: "p")
        metrics.coalesced(provider: "p")
        metrics.fetched(provider: "p", succeeded: true, duration: .milliseconds(1))
        var typed = Set<String>()
        for line in metrics.exposition(plugins: [(provider: "p", version: "1")], rateLimitWaits: ["p": 2], openConnections: 1).split(separator: "\n") {
            if line.hasPrefix("# TYPE ") {
                typed.insert(String(line.split(separator: " ")[2]))
            } else if !line.hasPrefix("#") {
                let name = String(line.prefix { $0 != "{" && $0 != " " })
                let family = ["_bucket", "_sum", "_count"].reduce(name) { name, suffix in
                    name.hasSuffix(suffix) && typed.contains(String(name.dropLast(suffix.count))) ? String(name.dropLast(suffix.count)) : name
                }
                #expect(typed.contains(family), "\(line) has no # TYPE before it")
            }
        }
        #expect(typed.count == 11)
    }
}
