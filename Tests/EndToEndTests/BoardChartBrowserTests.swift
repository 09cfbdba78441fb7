import Foundation
import PriceHostTesting
import Testing

/// The board's charts in a real headless Chromium, run as ``BoardBrowserTests`` runs it: drawn
/// from `/v1/candles` for the range a person chose, and from `/v1/history` on a server that has no
/// candles (404) or no quote store (503). The script's relay answers both routes as their contracts
/// say, so that what the page asks and draws is seen whatever this build's `serve` answers; the
/// rest (the board, the stream) is the real `serve`. Skips, saying why, as BoardBrowserTests does.
@Suite(.timeLimit(.minutes(3)))
struct BoardChartBrowserTests {
    /// SOL and DOGE from one provider, BTC from two (whose card shows their median). The file
    /// has no DOGE: its card never gets a price. coinbase answers nothing; it is only named.
    static let config = """
        {
          "plugins": ["libFileProvider.so", "libCoinbaseProvider.so"],
          "providers": {
            "file": {"path": "prices.json"},
            "coinbase": {"baseURL": "http://127.0.0.1:9", "timeoutSeconds": 1, "maxAttempts": 1}
          },
          "defaults": {"provider": "file", "currency": "USD"},
          "assets": {"BTC": {"providers": ["file", "coinbase"]}, "SOL": {"provider": "file"}, "DOGE": {"provider": "file"}}
        }
        """

    /// SOL's highest high and lowest low: more digits than a binary float keeps, so a scale label worked out in floats would differ.
    static let high = "143.875000000000000001", low = "139.0625"

    /// `serve` on `config` with the file's prices, the board opened through the relay with what `spec` makes added to its port and path.
    static func browse(config: String, _ spec: @escaping @Sendable () -> [String: Any]) async throws -> [String: Any] {
        let sandbox = try Sandbox(config: config, files: ["prices.json": BoardBrowserTests.prices(sol: "142.375", at: Date())])
        defer { sandbox.remove() }
        let files = try TemporaryDirectory(prefix: "pricehost-board")
        defer { files.remove() }
        return try await BoardBrowserTests.browse(sandbox, in: files) { port in
            spec().merging(["port": Int(port), "path": "/?interval=1", "changedAsset": "SOL"]) { given, _ in given }
        }.0
    }

    /// True when every label is a time of day, HH:MM, or (`dates`) a day's date at its midnight, `Nov 27`.
    /// Labels of a time axis: `HH:MM`, and a tick at midnight UTC names its day (`Nov 28`) in every range, which
    /// a run near midnight shows in the 15-minute and hour ranges too. `dates`: the day range, where most ticks are days.
    static func areTimes(_ labels: Any?, dates: Bool = false) -> Bool {
        let labels = labels as? [String] ?? []
        let days = labels.filter { $0.wholeMatch(of: /[A-Z][a-z]{2} \d{1,2}/) != nil }
        let times = labels.filter { $0.wholeMatch(of: /\d\d:\d\d/) != nil }
        return !labels.isEmpty && days.count + times.count == labels.count && (dates || days.count <= 1)
    }

    @Test func theChartsDrawTheRangesCandlesWithATimeAxisAndAnExactPriceScaleAndKeepTheRangeChosen() async throws {
        guard try await BoardBrowserTests.available() else { return }
        let report = try await Self.browse(config: Self.config) { ["emptyAsset": "DOGE", "candles": ["status": 200, "series": [
            "SOL": [["141", "142.5", "140.25", "142"], ["142", Self.high, "141.5", "143"], ["143", "143.25", Self.low, "141.125"]],
            "BTC": [["64000", "64010.5", "63990", "64005"]],
        ]]] }
        #expect(report["price"] as? String == "142.375", "\(report)")

        // Asked: each card's pair over the last 15 minutes, from a whole minute, in 1-minute candles; BTC's as the median of its two.
        let first = report["firstAsked"] as? [[String: Any]] ?? []
        let asked = Dictionary(first.map { ($0["asset"] as? String ?? "", $0) }) { earlier, _ in earlier }
        #expect(Set(asked.keys) == ["BTC", "SOL", "DOGE"], "\(first)")
        #expect(asked["SOL"]?["provider"] as? String == "file" && asked["SOL"]?["aggregate"] == nil, "\(first)")
        #expect(asked["BTC"]?["aggregate"] as? String == "median" && asked["BTC"]?["provider"] == nil, "\(first)")
        for one in first {
            #expect(one["interval"] as? String == "1m" && one["currency"] as? String == "USD", "\(one)")
            #expect((900...970).contains(one["fromSecondsAgo"] as? Int ?? 0) && (one["from"] as? String ?? "").hasSuffix(":00Z"), "\(one)")
        }

        // Drawn: the closes over a band of each candle's low to high, the stream's price on the last
        // candle, the scale's ends the exact text of the highest high and the lowest low, the time in UTC.
        let chart = report["chart"] as? [String: Any] ?? [:]
        let label = chart["label"] as? String ?? ""
        #expect(label.hasPrefix("SOL in USD, last 15 minutes (") && label.contains(" candles of 1 min, ")
                && label.hasSuffix(" UTC): last 142.375, low \(Self.low), high \(Self.high)"), "\(label)")
        #expect(chart["role"] as? String == "img" && chart["band"] as? Bool == true, "\(chart)")
        #expect(chart["high"] as? String == Self.high && chart["low"] as? String == Self.low, "\(chart)")
        #expect([[3], [4]].contains(chart["polylines"] as? [Int] ?? []), "one line, a point per candle: \(chart)")
        #expect((3...4).contains((chart["times"] as? [String])?.count ?? 0) && Self.areTimes(chart["times"]), "\(chart)")
        let empty = report["empty"] as? [String: Any] ?? [:]
        #expect(empty["empty"] as? String == "no data" && empty["label"] as? String == "DOGE in USD, last 15 minutes: no data", "\(empty)")

        // The range: three labelled choices; one day, clicked, asks 15-minute candles from 24 h back and is kept.
        let control = report["range"] as? [String: Any] ?? [:]
        #expect(control["legend"] as? String == "Charts", "\(control)")
        #expect(control["choices"] as? [[String]] == [["15 min", "15m"], ["1 hour", "1h"], ["1 day", "1d"]], "\(control)")
        let day = report["dayAsked"] as? [[String: Any]] ?? []
        #expect(Set(day.compactMap { $0["asset"] as? String }) == ["BTC", "SOL", "DOGE"], "\(day)")
        #expect(day.allSatisfy { $0["interval"] as? String == "15m" && (86_400...87_320).contains($0["fromSecondsAgo"] as? Int ?? 0) }, "\(day)")
        let dayChart = report["dayChart"] as? [String: Any] ?? [:]
        #expect((dayChart["label"] as? String ?? "").hasPrefix("SOL in USD, last 1 day (") && (dayChart["label"] as? String ?? "").contains(" candles of 15 min, "),
                "\(dayChart)")
        #expect((4...5).contains((dayChart["times"] as? [String])?.count ?? 0) && Self.areTimes(dayChart["times"], dates: true), "\(dayChart)")
        #expect(report["stored"] as? String == "1d")
        let reload = report["reloadAsked"] as? [[String: Any]] ?? []
        #expect(!reload.isEmpty && reload.allSatisfy { $0["interval"] as? String == "15m" }, "\(reload)")
        #expect(report["checkedAfterReload"] as? String == "1d", "\(report)")
    }

    /// 503: a serve without a quote store; 404: a serve from before `/v1/candles`.
    @Test(arguments: [503, 404])
    func withoutCandlesTheChartStartsWithTheLast15MinutesFromHistory(refusal: Int) async throws {
        guard try await BoardBrowserTests.available() else { return }
        let config = configJSON(plugins: ["libFileProvider.so"], extra: #", "assets": {"SOL": {"provider": "file"}}"#)
        let report = try await Self.browse(config: config) {
            ["candles": ["status": refusal], "history": ["SOL": ["file": [[600, "140.1"], [300, "143.9"], [60, "141.25"]]]]]
        }
        #expect(report["price"] as? String == "142.375", "\(report)")
        let candles = report["candlesAsked"] as? [[String: Any]] ?? []
        #expect(candles.count == 1 && candles.first?["interval"] as? String == "1m" && candles.first?["provider"] as? String == "file", "\(candles)")
        #expect(report["historyAsked"] as? [[String: String]] == [["asset": "SOL", "currency": "USD", "provider": "file", "minutes": "15"]], "\(report)")
        let chart = report["chart"] as? [String: Any] ?? [:]
        let label = chart["label"] as? String ?? ""
        #expect(label.hasPrefix("SOL in USD, last 15 minutes (") && label.contains(" prices, ")
                && label.hasSuffix(" UTC): last 142.375, low 140.1, high 143.9"), "\(label)")
        #expect(chart["high"] as? String == "143.9" && chart["low"] as? String == "140.1" && Self.areTimes(chart["times"]), "\(chart)")
        #expect((chart["polylines"] as? [Int] ?? []).first ?? 0 >= 4 && chart["band"] as? Bool == false, "\(chart)")
        let status = report["status"] as? String ?? ""
        #expect(status.contains("no candles from this server (\(refusal))") && !status.contains("nor history"), "\(status)")
    }
}
