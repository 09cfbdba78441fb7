import Foundation
@testable import PriceHostCore
@testable import PriceHostService
import ProviderABI
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
        // 14, and the webhooks' two (listed with zeros when serve has none).
        #expect(typed.count == 16)
    }

    static func quote(_ asset: String, _ amount: String, provider: String = "coinbase", milliseconds: Int64) -> Quote {
        Quote(asset: asset, currency: "USD", amount: DecimalAmount.parse(amount)!, provider: provider,
              timestamp: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    @Test func eachSeriesHasItsLastPriceAsAFloatAndItsTimeInSeconds() {
        let metrics = ServeMetrics()
        metrics.received(Self.quote("BTC", "64000.10", milliseconds: 1_795_702_916_170), fetchedHere: true)
        metrics.record(Self.quote("BTC", "64000.2", milliseconds: 1_795_702_917_005), source: .stream, receivedAt: Date().addingTimeInterval(5))
        metrics.received(Self.quote("BTC", "63999.5", provider: "kraken", milliseconds: 1_795_702_916_000), fetchedHere: true)
        // A quote got again changes nothing.
        metrics.received(Self.quote("BTC", "64000.10", milliseconds: 1_795_702_916_170), fetchedHere: true)
        let lines = metrics.exposition(plugins: [], rateLimitWaits: [:], openConnections: 0).split(separator: "\n").map(String.init)
        #expect(lines.contains(#"pricehost_quote_amount{asset="BTC",currency="USD",provider="coinbase"} 64000.2"#), "\(lines)")
        #expect(lines.contains(#"pricehost_quote_timestamp_seconds{asset="BTC",currency="USD",provider="coinbase"} 1795702917.005"#))
        #expect(lines.contains(#"pricehost_quote_amount{asset="BTC",currency="USD",provider="kraken"} 63999.5"#))
        #expect(lines.contains(#"pricehost_quote_timestamp_seconds{asset="BTC",currency="USD",provider="kraken"} 1795702916.000"#))
        #expect(lines.contains("pricehost_quote_series_evicted_total 0"))
        #expect(lines.filter { $0.hasPrefix("pricehost_quote_amount{") }.count == 2)
        // The history has every one it kept, with the source it came by.
        let points = metrics.history.points(asset: "BTC", currency: "USD", providers: ["coinbase"], since: .distantPast)
        #expect(points.map { "\(DecimalAmount.format($0.point.amount)) \($0.point.source)" } == ["64000.1 rest", "64000.2 stream"])
    }

    /// What `/v1/history` holds of a pair fetched a second apart: every quote, in order, each its own point,
    /// and one got again no other; stamped with the clock's time, on which the window is measured.
    /// (End to end, ServeHistoryTests slept 1.1 s between quotes to show this; a test clock moves instead.)
    @Test func quotesFetchedASecondApartAreEachAPointInOrder() {
        let clock = TestClock()
        let start = clock.wallNow
        let metrics = ServeMetrics(clock: clock)
        let amounts = ["64000.123456789012345678", "64001.5", "63999.000000000000000001", "64002.25"]
        for (index, amount) in amounts.enumerated() {
            if index > 0 { clock.advance(by: .milliseconds(1_100)) }
            let quote = Self.quote("BTC", amount, provider: "file", milliseconds: 1_795_702_900_000 + Int64(index) * 1_100)
            metrics.received(quote, fetchedHere: true)
            // The same quote again (the file unchanged) is the same point, not another.
            metrics.received(quote, fetchedHere: true)
        }
        for minutes in [15.0, 1] {
            let points = metrics.history.points(asset: "BTC", currency: "USD", providers: nil, since: clock.wallNow.addingTimeInterval(-minutes * 60))
            #expect(points.map { "\($0.provider) \(DecimalAmount.format($0.point.amount)) \($0.point.source)" } == amounts.map { "file \($0) rest" })
            #expect(points.map { ($0.point.receivedAt.timeIntervalSince(start) * 10).rounded() } == [0, 11, 22, 33])
        }
        // The window is measured on the clock: an hour later, nothing is in the last minute.
        clock.advance(by: .seconds(3_600))
        #expect(metrics.history.points(asset: "BTC", currency: "USD", providers: nil, since: clock.wallNow.addingTimeInterval(-60)).isEmpty)
    }

    @Test func theGaugesKeepAtMostTheLimitEvictingTheLeastRecentlyUpdated() {
        let metrics = ServeMetrics(maximumQuoteSeries: 2)
        metrics.received(Self.quote("AAA", "1", milliseconds: 1_000), fetchedHere: true)
        metrics.received(Self.quote("BBB", "2", milliseconds: 2_000), fetchedHere: true)
        metrics.received(Self.quote("AAA", "3", milliseconds: 3_000), fetchedHere: true)
        metrics.received(Self.quote("CCC", "4", milliseconds: 4_000), fetchedHere: true)
        let text = metrics.exposition(plugins: [], rateLimitWaits: [:], openConnections: 0)
        #expect(text.contains(#"pricehost_quote_amount{asset="AAA",currency="USD",provider="coinbase"} 3.0"#), "\(text)")
        #expect(text.contains(#"pricehost_quote_amount{asset="CCC",currency="USD",provider="coinbase"} 4.0"#))
        #expect(!text.contains(#"asset="BBB""#))
        #expect(text.contains("pricehost_quote_series_evicted_total 1\n"))
        #expect(ServeMetrics.maximumQuoteSeries == 1_000)
    }

    @Test(arguments: [("0.00000001", "1e-08"), ("91234.56", "91234.56"), ("1" + String(repeating: "0", count: 400), "+Inf"), ("12", "12.0")])
    func aGaugeValueIsTheDecimalsNearestFloat(decimal: String, sample: String) {
        #expect(ServeMetrics.chartValue(decimal) == sample)
    }

    @Test func timestampsAreUnixSecondsWithMilliseconds() {
        #expect(ServeMetrics.unixSeconds(Date(timeIntervalSince1970: 1_795_702_916.0704)) == "1795702916.070")
        #expect(ServeMetrics.unixSeconds(Date(timeIntervalSince1970: -1.5)) == "-1.500")
    }
}
