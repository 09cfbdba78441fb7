import Foundation
@testable import PriceHostCore
@testable import PriceHostService
import PriceHostStore
import PriceHostTestTraits
import PriceHostTesting
import ProviderABI
import Testing

/// serve's side of the quote store: what opens it, what it records, and what `/readyz` and the store's routes say.
@Suite(.offThePool) struct ServeStoreTests {
    /// 2026-11-27T12:00:00Z.
    static let noon = Date(timeIntervalSince1970: 1_795_780_800)

    static func config(_ json: String, in directory: TemporaryDirectory) throws -> Config {
        let path = try directory.write(json, to: "plugins.json")
        return try ConfigParser.parse(Array(json.utf8), path: path, environment: [:], sections: [StoreSection.self])
    }

    /// A router whose metrics keep quotes in `store`, over a generation of no plugins.
    static func router(_ store: ServeStore, in directory: TemporaryDirectory, clock: TestClock) throws -> (ServeRouter, ServeMetrics) {
        let (state, _, _, lines) = try ServeReloadTests.serving(#"{"plugins": []}"#, in: directory)
        let metrics = ServeMetrics(clock: clock, store: store)
        let router = ServeRouter(state: state, metrics: metrics, hub: StreamHub(source: ServeStreamSource(state: state, metrics: metrics)),
                                 log: RequestLog(metrics: metrics, diagnostics: lines.diagnostics), openConnections: { 0 })
        return (router, metrics)
    }

    static func get(_ router: ServeRouter, _ path: String, _ query: [(name: String, value: String)] = []) async -> ServeResponse? {
        let reply = router.answer(ServeRequest(method: "GET", target: path, path: path, query: query, headers: [], keepAlive: true))
        switch reply {
        case .now(.response(let response, _)): return response
        case .later(let work):
            guard case .response(let response, _) = await work() else { return nil }
            return response
        default: return nil
        }
    }

    @Test func aConfiguredPathThatCannotBeCreatedIsAConfigError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("a file", to: "file")
        let config = try Self.config(#"{"plugins": [], "store": {"url": "sqlite:file/under/quotes.db"}}"#, in: directory)
        let lines = ServeReloadTests.Lines()
        guard case .failure(let error) = ServeStore.open(config, environment: [:], diagnostics: lines.diagnostics, clock: TestClock()) else {
            Issue.record("a store under a regular file was opened")
            return
        }
        #expect(error.description.contains("store.url: cannot create the quote store \(directory.path)/file/under/quotes.db"))
    }

    @Test func withoutAPathOrWhenTurnedOffThereIsNoStore() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let lines = ServeReloadTests.Lines()
        let noHome = try Self.config(#"{"plugins": []}"#, in: directory)
        guard case .success(.off) = ServeStore.open(noHome, environment: [:], diagnostics: lines.diagnostics, clock: TestClock()) else {
            Issue.record("a store was opened without XDG_STATE_HOME or HOME")
            return
        }
        #expect(lines.all.count == 1 && lines.all[0].contains("neither XDG_STATE_HOME nor HOME is set"))
        let off = try Self.config(#"{"plugins": [], "store": {"enabled": false}}"#, in: directory)
        guard case .success(.off) = ServeStore.open(off, environment: ["HOME": directory.path], diagnostics: lines.diagnostics, clock: TestClock()) else {
            Issue.record("a store turned off was opened")
            return
        }
        #expect(lines.all.count == 1)
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/.local"))
    }

    @Test func theDefaultStoreIsUnderXDGStateHome() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = try Self.config(#"{"plugins": []}"#, in: directory)
        let opened = ServeStore.open(config, environment: ["XDG_STATE_HOME": directory.path + "/state", "HOME": "/nonexistent"],
                                     diagnostics: ServeReloadTests.Lines().diagnostics, clock: TestClock())
        guard case .success(.open(let store)) = opened else {
            Issue.record("no store: \(opened)")
            return
        }
        defer { store.close() }
        #expect(store.settings.location == .sqlite(directory.path + "/state/pricehost/quotes.db"))
        #expect(FileManager.default.fileExists(atPath: directory.path + "/state/pricehost/quotes.db"))
    }

    @Test func aQuoteServeGetsIsAnsweredAsThePriceAtItsTime() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let clock = TestClock(wallNow: Self.noon.addingTimeInterval(60))
        let store = try QuoteStore.open(StoreSettings(path: directory.file("quotes.db")), diagnostics: ServeReloadTests.Lines().diagnostics, clock: clock)
        defer { store.close() }
        let (router, metrics) = try Self.router(.open(store), in: directory, clock: clock)
        metrics.record(Quote(asset: "BTC", currency: "USD", amount: try #require(DecimalAmount.parse("67012.45")), provider: "alpha", timestamp: Self.noon),
                       source: .stream, receivedAt: Self.noon.addingTimeInterval(0.25))
        store.flush()
        let price = await Self.get(router, "/v1/price", [("asset", "BTC"), ("at", "2026-11-27T12:00:30Z")])
        #expect(price?.status == 200)
        #expect(price.map { String(decoding: $0.body, as: UTF8.self) }
            == #"{"asset":"BTC","currency":"USD","amount":"67012.45","provider":"alpha","timestamp":"2026-11-27T12:00:00Z","at":"2026-11-27T12:00:30Z","ageMs":30000}"#)
        let candles = await Self.get(router, "/v1/candles", [("asset", "BTC"), ("from", "2026-11-27T11:59:00Z")])
        #expect(candles.map { String(decoding: $0.body, as: UTF8.self) }
            == #"[{"start":"2026-11-27T12:00:00Z","open":"67012.45","high":"67012.45","low":"67012.45","close":"67012.45","count":1}]"#)
        let ready = await Self.get(router, "/readyz")
        #expect(ready.map { String(decoding: $0.body, as: UTF8.self) } == #"{"status":"ready","plugins":0,"store":"ok"}"#)
        let bad = await Self.get(router, "/v1/candles", [("asset", "BTC"), ("interval", "2m")])
        #expect(bad?.status == 400)
        #expect(bad.map { String(decoding: $0.body, as: UTF8.self) } == #"{"error":"unknown interval \"2m\"; expected 1m, 5m, 15m, 1h, 4h or 1d"}"#)
    }

    @Test func aStoreThatCannotBeWrittenMakesTheInstanceDegradedAndSaysWhy() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(String(repeating: "not a database\n", count: 100), to: "quotes.db")
        let clock = TestClock(wallNow: Self.noon)
        let store = try QuoteStore.open(StoreSettings(path: directory.file("quotes.db")), diagnostics: ServeReloadTests.Lines().diagnostics, clock: clock)
        defer { store.close() }
        let (router, _) = try Self.router(.open(store), in: directory, clock: clock)
        let ready = await Self.get(router, "/readyz")
        #expect(ready?.status == 200)
        let body = ready.map { String(decoding: $0.body, as: UTF8.self) } ?? ""
        #expect(body.hasPrefix(#"{"status":"degraded","plugins":0,"store":"degraded: the file is not an SQLite database"#), "\(body)")
        let candles = await Self.get(router, "/v1/candles", [("asset", "BTC")])
        #expect(candles?.status == 503)
    }

    @Test func withoutAStoreItsRoutesAre503() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (router, _) = try Self.router(.unavailable("cannot load libsqlite3.so.0"), in: directory, clock: TestClock())
        for path in ["/v1/candles", "/v1/price", "/v1/twap"] {
            let query = path == "/v1/price" ? [("asset", "BTC"), ("at", "2026-11-27T12:00:00Z")] : path == "/v1/twap" ? [("asset", "BTC"), ("window", "1h")] : [("asset", "BTC")]
            let response = await Self.get(router, path, query)
            #expect(response?.status == 503, "\(path)")
            #expect(response.map { String(decoding: $0.body, as: UTF8.self) } == #"{"error":"no quote store: cannot load libsqlite3.so.0"}"#)
        }
        let ready = await Self.get(router, "/readyz")
        #expect(ready.map { String(decoding: $0.body, as: UTF8.self) } == #"{"status":"degraded","plugins":0,"store":"unavailable: cannot load libsqlite3.so.0"}"#)
    }
}
