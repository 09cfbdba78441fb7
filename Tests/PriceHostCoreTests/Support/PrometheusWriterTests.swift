@testable import PriceHostCore
import Testing

/// The one writer of Prometheus text and its one histogram, which every `/metrics` family goes through.
struct PrometheusWriterTests {
    @Test func aHistogramIsWrittenWithCumulativeBucketsInfSumAndCount() {
        var histogram = PrometheusHistogram(bounds: [0.1, 1])
        for value in [0.0625, 0.5, 0.75, 4.0] { histogram.record(value) }
        histogram.record(.milliseconds(250))
        var writer = PrometheusWriter()
        writer.family("lag_seconds", "histogram", "Lag.")
        writer.histogram("lag_seconds", [("provider", "a\"b")], histogram)
        #expect(writer.text == """
            # HELP lag_seconds Lag.
            # TYPE lag_seconds histogram
            lag_seconds_bucket{provider="a\\"b",le="0.1"} 1
            lag_seconds_bucket{provider="a\\"b",le="1.0"} 4
            lag_seconds_bucket{provider="a\\"b",le="+Inf"} 5
            lag_seconds_sum{provider="a\\"b"} 5.5625
            lag_seconds_count{provider="a\\"b"} 5

            """)
    }

    @Test func aValueAboveEveryBoundAndNaNCountOnlyInInfAndCount() {
        var histogram = PrometheusHistogram(bounds: [1])
        histogram.record(2)
        histogram.record(.nan)
        #expect(histogram.counts == [0] && histogram.count == 2)
    }

    @Test func samplesAreSortedByTheirLabel() {
        var writer = PrometheusWriter()
        writer.samples("hits_total", label: "provider", ["b": 2, "a": 1])
        #expect(writer.text == "hits_total{provider=\"a\"} 1\nhits_total{provider=\"b\"} 2\n")
    }
}
