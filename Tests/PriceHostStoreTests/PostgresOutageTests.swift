import Foundation
import PriceHostCore
import PriceHostStore
import PriceHostTestTraits
import PriceHostTesting
import Testing

/// PostgreSQL stopped for 10 s under a running store, then started again: a server of the suite's own, since the test stops it.
/// Skips, saying why, without PostgreSQL's server (`apt-get install -y postgresql`).
@Suite(.offThePool) struct PostgresOutageTests {
    @Test func quotesRecordedWhileTheServerIsDownLandWhenItReturnsAndOneLineSaysSo() throws {
        let server: PostgresServer
        do {
            server = try PostgresServer()
        } catch {
            print("PostgresOutageTests: \(error)")
            return
        }
        let database = try server.makeDatabase()
        let lines = PostgresStoreTests.Lines()
        let store = try PostgresStoreTests.open(server.url(database: database), lines: lines)
        defer { store.close() }
        let before = (0..<10).map { QuoteStoreTests.quote(String(100 + $0), at: Int64($0) * 1_000) }
        for quote in before { store.record(quote) }
        store.flush()
        #expect(store.currentStatus == .ok)

        server.stop()
        let stopped = Date()
        let during = (10..<40).map { QuoteStoreTests.quote(String(100 + $0), at: Int64($0) * 1_000) }
        for quote in during { store.record(quote) }
        // The writer finds the server gone: the store says so, keeps the quotes, and reads fail naming the store.
        let deadline = Date().addingTimeInterval(15)
        while store.currentStatus == .ok, Date() < deadline { usleep(20_000) }
        guard case .degraded(let reason) = store.currentStatus else {
            Issue.record("the store stayed \(store.currentStatus) with the server stopped")
            return
        }
        #expect(store.droppedCount == 0)
        do {
            _ = try store.quotes(QuoteStoreTests.btc, after: 0, through: .max)
            Issue.record("a read succeeded with the server stopped")
        } catch {
            #expect(error.description.hasPrefix("the quote store postgres://pricehost@127.0.0.1:\(server.port)/\(database) cannot be read: "))
            #expect(!error.description.contains(server.password))
        }
        // Down for 10 s in all: the writer keeps trying, without a line per try.
        usleep(UInt32(max(0, 10 - Date().timeIntervalSince(stopped)) * 1_000_000))
        let more = (40..<50).map { QuoteStoreTests.quote(String(100 + $0), at: Int64($0) * 1_000) }
        for quote in more { store.record(quote) }

        try server.start()
        store.flush()
        #expect(store.currentStatus == .ok)
        #expect(store.droppedCount == 0)
        let stored = try store.quotes(QuoteStoreTests.btc, after: 0, through: .max)
        #expect(stored.map(\.amount) == (before + during + more).map(\.amount))
        let candles = try store.candles(QuoteStoreTests.btc, interval: .oneMinute, from: QuoteStoreTests.noon, to: QuoteStoreTests.noon,
                                        fillPrevious: false, now: QuoteStoreTests.noon, limit: 10)
        #expect(candles == .candles([Candle(start: QuoteStoreTests.noon, open: "100", high: "149", low: "100", close: "149", count: 50)]))
        let written = lines.all.filter { $0.contains("is written again") }
        #expect(written == ["pricehost: warning: the quote store postgres://pricehost@127.0.0.1:\(server.port)/\(database) is written again"])
        #expect(lines.all.filter { $0.contains("cannot be written") }.count <= 3, "one line per distinct reason: \(lines.all)")
        #expect(lines.all.allSatisfy { !$0.contains(server.password) })
        #expect(!reason.contains(server.password))
    }
}
