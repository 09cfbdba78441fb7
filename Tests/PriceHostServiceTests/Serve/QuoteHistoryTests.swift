import Foundation
@testable import PriceHostCore
@testable import PriceHostService
import ProviderABI
import Testing

/// `/v1/history`'s memory: bounded per series and in series, each quote kept once, in order.
struct QuoteHistoryTests {
    static let start = Date(timeIntervalSince1970: 1_795_702_800)

    static func quote(_ amount: String, provider: String = "coinbase", asset: String = "BTC", currency: String = "USD", at seconds: Double) -> Quote {
        Quote(asset: asset, currency: currency, amount: DecimalAmount.parse(amount)!, provider: provider,
              timestamp: start.addingTimeInterval(seconds))
    }

    /// Records `quote`, got `seconds` after ``start``.
    @discardableResult
    static func record(_ history: QuoteHistory, _ quote: Quote, source: QuoteSource = .rest, receivedAfter seconds: Double) -> Bool {
        history.record(quote, source: source, receivedAt: start.addingTimeInterval(seconds))
    }

    static func amounts(_ history: QuoteHistory, providers: [String]? = nil, since seconds: Double = -1) -> [String] {
        history.points(asset: "BTC", currency: "USD", providers: providers, since: start.addingTimeInterval(seconds))
            .map { "\($0.provider) \(DecimalAmount.format($0.point.amount))" }
    }

    @Test func theDocumentedBounds() {
        #expect(QuoteHistory.pointsPerSeries == 3_600)
        #expect(QuoteHistory.maximumSeries == 256)
        #expect(QuoteHistory.maximumMinutes == 60)
        #expect(MemoryLayout<QuoteHistory.Point>.stride == 40, "the documented 37 MB assume 40 bytes a point")
    }

    @Test func aFullSeriesDropsItsOldestPointsAndKeepsTheRestInOrder() {
        let history = QuoteHistory(pointsPerSeries: 5)
        for index in 1...12 {
            #expect(Self.record(history, Self.quote("\(100 + index)", at: Double(index)), receivedAfter: Double(index)))
        }
        #expect(Self.amounts(history) == (108...112).map { "coinbase \($0)" })
    }

    @Test func withinOneSecondAProvidersLaterQuoteReplacesItsEarlierOne() {
        let history = QuoteHistory()
        Self.record(history, Self.quote("1.1", at: 0.1), receivedAfter: 10.1)
        Self.record(history, Self.quote("1.2", at: 0.2), receivedAfter: 10.5)
        Self.record(history, Self.quote("1.3", at: 0.3), receivedAfter: 10.9)
        Self.record(history, Self.quote("1.4", at: 0.4), receivedAfter: 11.0)
        // Another provider's quote in the same second is its own point.
        Self.record(history, Self.quote("2.1", provider: "kraken", at: 0.35), receivedAfter: 10.95)
        #expect(Self.amounts(history) == ["coinbase 1.3", "kraken 2.1", "coinbase 1.4"])
        let newest = history.points(asset: "BTC", currency: "USD", providers: ["coinbase"], since: Self.start).last?.point
        #expect(newest?.timestamp == Self.start.addingTimeInterval(0.4))
    }

    @Test func aQuoteGotAgainIsKeptOnceAndAnOlderOneInItsPlace() {
        let history = QuoteHistory()
        #expect(Self.record(history, Self.quote("5", at: 5), source: .stream, receivedAfter: 5))
        // The same update through a second topic, or the REST quote the fetch already reported.
        #expect(!Self.record(history, Self.quote("5.00", at: 5), source: .stream, receivedAfter: 6))
        // An older quote (a venue whose clock is behind ours) is kept, in its place by time.
        #expect(Self.record(history, Self.quote("4", at: 4), receivedAfter: 7))
        // The same time at another price is another quote (a file rewritten with its timestamps kept).
        #expect(Self.record(history, Self.quote("5.5", at: 5), receivedAfter: 8))
        #expect(!Self.record(history, Self.quote("5", at: 5), receivedAfter: 9))
        #expect(Self.amounts(history) == ["coinbase 4", "coinbase 5", "coinbase 5.5"])
    }

    @Test func aQuoteReplacedWithinItsSecondIsStillKnownWhenItComesAgain() {
        let history = QuoteHistory()
        Self.record(history, Self.quote("1", at: 1), receivedAfter: 10.1)
        Self.record(history, Self.quote("2", at: 2), receivedAfter: 10.5)
        #expect(!Self.record(history, Self.quote("1", at: 1), receivedAfter: 11.2))
        #expect(Self.amounts(history) == ["coinbase 2"])
    }

    @Test func whatIsRememberedToKnowAQuoteAgainIsBounded() {
        let history = QuoteHistory()
        for index in 0...QuoteHistory.remembered {
            #expect(Self.record(history, Self.quote("\(index + 1)", at: Double(index)), receivedAfter: Double(index)))
        }
        // The first is no longer among the last 16: it counts as a new quote.
        #expect(Self.record(history, Self.quote("1", at: 0), receivedAfter: 100))
        #expect(!Self.record(history, Self.quote("17", at: 16), receivedAfter: 101))
    }

    @Test func theWindowIsWhenTheQuotesArrivedAndProvidersFilter() {
        let history = QuoteHistory()
        // Quotes whose own time is long past (a file's), got over ten minutes.
        for minute in 0..<10 {
            Self.record(history, Self.quote("1\(minute)", at: Double(minute) - 86_400), receivedAfter: Double(minute * 60))
            Self.record(history, Self.quote("2\(minute)", provider: "kraken", at: Double(minute) - 86_400), receivedAfter: Double(minute * 60))
        }
        #expect(Self.amounts(history, since: 8 * 60) == ["coinbase 18", "kraken 28", "coinbase 19", "kraken 29"])
        #expect(Self.amounts(history, providers: ["kraken", "nobody"], since: 8 * 60) == ["kraken 28", "kraken 29"])
        #expect(Self.amounts(history, providers: []).isEmpty)
        #expect(history.points(asset: "BTC", currency: "EUR", providers: nil, since: Self.start).isEmpty)
    }

    @Test func pastTheLimitANewSeriesEvictsTheLeastRecentlyUpdated() {
        let history = QuoteHistory(maximumSeries: 2)
        Self.record(history, Self.quote("1", asset: "AAA", at: 1), receivedAfter: 1)
        Self.record(history, Self.quote("2", asset: "BBB", at: 2), receivedAfter: 2)
        Self.record(history, Self.quote("3", asset: "AAA", at: 3), receivedAfter: 3)
        // A repeat does not count as an update: BBB stays the least recently updated.
        Self.record(history, Self.quote("2", asset: "BBB", at: 2), receivedAfter: 4)
        Self.record(history, Self.quote("4", asset: "CCC", at: 4), receivedAfter: 5)
        #expect(history.seriesCount == 2)
        #expect(history.evictedCount == 1)
        func kept(_ asset: String) -> Int { history.points(asset: asset, currency: "USD", providers: nil, since: Self.start).count }
        #expect(kept("AAA") == 2 && kept("BBB") == 0 && kept("CCC") == 1)
        // A thousand more series: still two.
        for index in 0..<1_000 { Self.record(history, Self.quote("1", asset: "X\(index)", at: 10), receivedAfter: 10) }
        #expect(history.seriesCount == 2 && history.evictedCount == 1_001)
    }

    @Test func concurrentRecordsAndReadsStayWithinTheBounds() async {
        let history = QuoteHistory(pointsPerSeries: 50, maximumSeries: 4)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for index in 0..<500 {
                        Self.record(history, Self.quote("\(index)", provider: "p\(task)", asset: index % 2 == 0 ? "BTC" : "E\(task)", at: Double(index)),
                                    receivedAfter: Double(index))
                        _ = history.points(asset: "BTC", currency: "USD", providers: nil, since: Self.start)
                    }
                }
            }
        }
        #expect(history.seriesCount <= 4)
        let points = history.points(asset: "BTC", currency: "USD", providers: nil, since: Self.start)
        #expect(points.count <= 4 * 50)
        #expect(zip(points, points.dropFirst()).allSatisfy { $0.point.timestamp <= $1.point.timestamp })
    }
}
