import Foundation
import PriceHostTestTraits
import PriceHostTesting
import Testing

/// `watch --stream --deviation-bps`, `--max-age`: a scripted Coinbase feed on a loopback venue, and what is printed of it.
@Suite(.offThePool, .timeLimit(.minutes(2)))
struct WatchStreamDeliveryRuleTests {
    @Test func onlyThePricesThatMovedEnoughArePrinted() async throws {
        guard await StreamVenue.available(for: "WatchStreamDeliveryRuleTests.\(#function)") else { return }
        let now = Date()
        let prices = ["100", "100.2", "100.25", "100", "99.999375", "100.1", "100.35", "101"]
        let steps: [StreamVenue.Step] = [.waitMessage]
            + prices.enumerated().map { .send(CoinbaseFeed.ticker($0.element, sequence: $0.offset + 1, at: now)) } + [.hold]
        let venue = try await StreamVenue.start([steps])
        defer { venue.stop() }
        let sandbox = try StreamSandbox(provider: "coinbase", plugin: "libCoinbaseProvider.so", streamURL: venue.url())
        defer { sandbox.remove() }
        let result = try await sandbox.watch(["--asset", "BTC", "--provider", "coinbase", "--deviation-bps", "25", "--ticks", "4"])
        #expect(result.status == 0, "\(result)")
        // 100.2 is 20 bps from 100; 100 is 24.94 from 100.25; 100.1 is 10.06 from 99.999375, 100.35 is 35.06.
        #expect(jsonLines(result).compactMap { $0["amount"] as? String } == ["100", "100.25", "99.999375", "100.35"], "\(result)")
    }

    @Test func aStaleQuoteIsAWarningNotALine() async throws {
        guard await StreamVenue.available(for: "WatchStreamDeliveryRuleTests.\(#function)") else { return }
        let now = Date()
        let venue = try await StreamVenue.start([[.waitMessage,
            .send(CoinbaseFeed.ticker("100", sequence: 1, at: now.addingTimeInterval(-45))),
            .send(CoinbaseFeed.ticker("101", sequence: 2, at: now.addingTimeInterval(-44))),
            .send(CoinbaseFeed.ticker("102", sequence: 3, at: now)), .hold]])
        defer { venue.stop() }
        let sandbox = try StreamSandbox(provider: "coinbase", plugin: "libCoinbaseProvider.so", streamURL: venue.url())
        defer { sandbox.remove() }
        let result = try await sandbox.watch(["--asset", "BTC", "--provider", "coinbase", "--max-age", "30s", "--ticks", "1"])
        #expect(result.status == 0, "\(result)")
        #expect(jsonLines(result).compactMap { $0["amount"] as? String } == ["102"], "\(result)")
        let warnings = result.standardError.split(separator: "\n").filter { $0.contains("is stale") }
        #expect(warnings.count == 1, "\(result)")
        // The first quote's age when it arrived: 45 s, plus however long the venue and watch took to start (6 s
        // under the whole suite's load once), never more than the test has run.
        let prefix = "pricehost: warning: watch --stream: BTC-USD from coinbase is stale: its quote is "
        let suffix = " s old, more than --max-age 30 s; its prices are not printed until a fresh one"
        let warning = warnings.first.map(String.init) ?? ""
        #expect(warning.hasPrefix(prefix) && warning.hasSuffix(suffix), "\(result)")
        let age = Double(warning.dropFirst(prefix.count).dropLast(suffix.count)) ?? 0
        #expect(age >= 44.9 && age <= 45 + Date().timeIntervalSince(now), "\(result)")
    }
}
