import Foundation
import PriceHostTestTraits
import PriceHostTesting
import Testing

/// Issue 35's "show it": `serve` records a known sequence of streamed and polled quotes in its store
/// (some late, some minutes without any) and answers candles, prices at a time and TWAPs exactly as
/// ``StoreOracle`` works them out on its own; restarted on the same file, it gives the same answers.
@Suite(.offThePool, .timeLimit(.minutes(2)))
struct StoreRecordingTests {
    /// The UTC hour the quotes are in: three hours ago, well within `rawRetentionDays`, so nothing is pruned.
    static let hour = (Int64(Date().timeIntervalSince1970 * 1000) - 3 * 3_600_000).floored(to: 3_600_000)

    /// `hour` plus minutes, seconds and milliseconds (Unix ms).
    static func at(_ minutes: Int64, _ seconds: Int64 = 0, _ milliseconds: Int64 = 0) -> Int64 {
        hour + minutes * 60_000 + seconds * 1_000 + milliseconds
    }

    /// coinbase's feed, in the order its venue sends them: nothing in minutes 2, 4 to 6, 8 to 11 and 13 to 79.
    /// The one at 02:30 comes after 03:15.5: a feed never emits a quote older than the last (docs/streams.md),
    /// so the store never sees it.
    static let streamed: [(time: Int64, amount: String)] = [
        (at(0, 5, 250), "64000.5"), (at(0, 40), "64010"), (at(0, 59, 999), "63990.25"), (at(1, 0), "64005"),
        (at(3, 15, 500), "64020.125"), (at(2, 30), "64999"), (at(3, 45), "64015"), (at(7, 0, 1), "64030"),
        (at(12, 30), "64040.75"), (at(80), "64100"),
    ]
    static let goesBackInTime = 5

    /// The file provider's quotes, in the order the polls get them. The third, fifth and seventh are late:
    /// stamped before the quote polled just before them, in an earlier minute. Nothing in minutes 2, 3, 5, 7, 8 and 10 to 13.
    static let polled: [(time: Int64, amount: String)] = [
        (at(0, 20), "63000"), (at(1, 30), "63010.5"), (at(0, 50), "62990"), (at(4, 10), "63020"),
        (at(1, 5), "63030"), (at(9, 59, 999), "63040"), (at(6, 0), "63035"), (at(14, 0), "63050"),
    ]

    /// coinbase's tickers (``CoinbaseFeed/ticker(_:product:sequence:time:)``) carry `best_bid` and `best_ask` equal to
    /// the price: kept in the store with the quote, and answered with it, before a restart and after.
    static let oracle = StoreOracle(quotes:
        streamed.enumerated().filter { $0.offset != goesBackInTime }.map {
            StoreOracle.Quote(provider: "coinbase", time: $0.element.time, amount: $0.element.amount, arrival: $0.offset,
                              bid: $0.element.amount, ask: $0.element.amount)
        } + polled.enumerated().map {
            StoreOracle.Quote(provider: "file", time: $0.element.time, amount: $0.element.amount, arrival: $0.offset)
        })

    /// The prices asked at a time: before the first, at a quote's very millisecond, just before one, after a gap,
    /// after a late quote, and more than `maxAgeSeconds` (1 h) after the last.
    static let prices: [(provider: String, at: Int64)] = [
        ("coinbase", at(0, 5, 249)), ("coinbase", at(0, 5, 250)), ("coinbase", at(0, 59, 999)), ("coinbase", at(2, 59)),
        ("coinbase", at(3, 15, 499)), ("coinbase", at(10)), ("coinbase", at(75)), ("coinbase", at(80)),
        ("file", at(0, 19, 999)), ("file", at(0, 55)), ("file", at(1, 10)), ("file", at(5, 59, 999)), ("file", at(6)), ("file", at(20)),
    ]

    /// The TWAPs asked: one whose start is before the first price, one carrying in a price from before its start,
    /// one carrying in a price over an hour old, and one with no price in it.
    static let averages: [(provider: String, window: String, at: Int64)] = [
        ("coinbase", "5m", at(5)), ("file", "10m", at(10, 30)), ("coinbase", "1h", at(90)), ("coinbase", "90s", at(0, 5)),
    ]

    @Test func aKnownSequenceIsAnsweredExactlyAndTheSameAfterARestart() async throws {
        guard await StreamVenue.available(for: "StoreRecordingTests.\(#function)") else { return }
        let ticks = Self.streamed.enumerated().map { index, quote in
            StreamVenue.Step.send(CoinbaseFeed.ticker(quote.amount, sequence: String(index + 1), time: StoreOracle.iso(quote.time)))
        }
        try await FollowedFeed.with(ticks) { feed in
            let (sandbox, server) = (feed.sandbox, feed.server)
            _ = try feed.follower.read(until: #""amount":"\#(Self.streamed.last!.amount)""#)
            let streamedCount = Self.streamed.count - 1
            #expect(try StoreSandbox.waitForWrites(server, atLeast: streamedCount) == streamedCount)
            // Each polled quote written before the next comes: a late one then updates candles already on disk,
            // where the streamed ones, written together, update them in memory.
            for (index, quote) in Self.polled.enumerated() {
                try sandbox.poll(server, quote.amount, at: quote.time, written: streamedCount + index + 1)
            }

            let answers = try Self.askAndCheck(server)
            try Self.checkFillingStopsAtNow(server)

            // The same file, another process: the same answers. The venue goes first, so that nothing more is recorded.
            feed.venue.stop()
            #expect(server.stop() == 0, "\(server.process.standardError)")
            let restarted = try ServeProcess(sandbox.sandbox)
            defer { restarted.stop() }
            for (path, before) in answers {
                let after = try restarted.get(path)
                #expect(after.status == before.status && after.body == before.body, "\(path)\nbefore the restart: \(before)\nafter: \(after)")
            }
        }
    }

    /// A quote a restarted serve gets again (a price file unchanged; a REST price the venue has not updated since,
    /// as CoinGecko's for a minute; a feed that sends its current ticker on subscribing, as Kraken's snapshot) is
    /// one quote, kept once, as within one process: the candle counts it once and /v1/history lists it once.
    @Test func aQuoteGotAgainAfterARestartIsKeptOnce() throws {
        let sandbox = try StoreSandbox()
        defer { sandbox.remove() }
        let time = Self.at(0, 10)
        let first = try ServeProcess(sandbox.sandbox)
        try sandbox.poll(first, "64000.5", at: time, written: 1)
        #expect(first.stop() == 0)
        let second = try ServeProcess(sandbox.sandbox)
        defer { second.stop() }
        try sandbox.poll(second, "64000.5", at: time, written: 1)
        let candles = try second.get("/v1/candles?asset=BTC&provider=file&from=\(StoreOracle.iso(Self.at(0)))&to=\(StoreOracle.iso(Self.at(0)))")
        let history = try second.get("/v1/history?asset=BTC&provider=file&minutes=600")
        #expect(candles.body == #"[{"start":"\#(StoreOracle.iso(Self.at(0)))","open":"64000.5","high":"64000.5","low":"64000.5","close":"64000.5","count":1}]"#)
        #expect(history.body.components(separatedBy: #""amount":"64000.5""#).count - 1 == 1, "\(history.body)")
    }

    /// The oracle agrees with what was worked out by hand for a few answers: the model itself is right.
    @Test func theOracleAgreesWithAnswersWorkedOutByHand() {
        let oracle = Self.oracle
        let minutes = oracle.candles("file", span: 1, from: Self.at(0), to: Self.at(15))
        // Minute 0: the late 62990 (00:50) closes it; minute 1: the late 63030 (01:05) opens it.
        #expect(minutes.prefix(2) == [
            StoreOracle.Candle(start: Self.at(0), open: "63000", high: "63000", low: "62990", close: "62990", count: 2),
            StoreOracle.Candle(start: Self.at(1), open: "63030", high: "63030", low: "63010.5", close: "63010.5", count: 2),
        ])
        #expect(minutes.map(\.start) == [0, 1, 4, 6, 9, 14].map { Self.at($0) })
        #expect(oracle.candles("file", span: 5, from: Self.at(5), to: Self.at(5)) == [
            StoreOracle.Candle(start: Self.at(5), open: "63035", high: "63040", low: "63035", close: "63040", count: 2),
        ])
        #expect(oracle.candles("coinbase", span: 1, from: Self.at(0), to: Self.at(15)).map(\.start) == [0, 1, 3, 7, 12].map { Self.at($0) })
        #expect(oracle.priceReply("coinbase", at: Self.at(2, 59)).body.contains(#""amount":"64005""#))
        // 50 minutes of 64040.75 and 10 of 64100.
        let hour = oracle.twap("coinbase", window: 3_600_000, at: Self.at(90))
        #expect(hour?.amount == "64050.625" && hour?.count == 1 && hour?.coverage == "1")
        // (00:05.25, 05:00] is covered: 294,750 ms of 300,000.
        #expect(oracle.twap("coinbase", window: 300_000, at: Self.at(5))?.coverage == "0.9825")
        // Half to even.
        #expect(["0.000015", "0.000025", "0.0000251", "0.000035"].map { StoreOracle.roundedHalfEven(Decimal(string: $0)!, places: 5) }
                == ["0.00002", "0.00002", "0.00003", "0.00004"])
    }

    /// Asks every interval's candles (with and without fill), every price and every TWAP, and checks each against
    /// the oracle and the rollups against the 1-minute candles. The replies, by path.
    static func askAndCheck(_ server: ServeProcess) throws -> [(String, HTTPReply)] {
        var replies: [(String, HTTPReply)] = []
        func ask(_ path: String, _ expected: (status: Int, body: String)) throws -> HTTPReply {
            let reply = try server.get(path)
            #expect(reply.status == expected.status && reply.body == expected.body,
                    "\(path)\nexpected: \(expected.status) \(expected.body)\ngot:      \(reply.status) \(reply.body)")
            replies.append((path, reply))
            return reply
        }
        let iso = StoreOracle.iso
        // From the start of the UTC day, so that the day's and the 4 hours' windows are whole.
        let from = hour.floored(to: 86_400_000), to = at(120)
        for provider in ["coinbase", "file"] {
            var minutes: [StoreOracle.Candle] = []
            for (name, span) in StoreOracle.spans.sorted(by: { $0.value < $1.value }) {
                let path = "/v1/candles?asset=BTC&provider=\(provider)&interval=\(name)&from=\(iso(from))&to=\(iso(to))"
                let reply = try ask(path, (200, StoreOracle.json(oracle.candles(provider, span: span, from: from, to: to))))
                let candles = try Self.candles(reply.body)
                if span == 1 { minutes = candles } else {
                    #expect(candles == StoreOracle.rolledUp(minutes, span: span), "\(provider) \(name) is not its 1m candles rolled up")
                }
            }
        }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        for (provider, name, start, end) in [("coinbase", "1m", at(0), at(15)), ("coinbase", "1m", at(4), at(9)), ("file", "5m", at(0), at(30))] {
            let span = StoreOracle.spans[name]!
            _ = try ask("/v1/candles?asset=BTC&provider=\(provider)&interval=\(name)&from=\(iso(start))&to=\(iso(end))&fill=previous",
                        (200, StoreOracle.json(oracle.filledCandles(provider, span: span, from: start, to: end, now: now))))
        }
        for (provider, time) in prices {
            _ = try ask("/v1/price?asset=BTC&provider=\(provider)&at=\(iso(time))", oracle.priceReply(provider, at: time))
        }
        for (provider, window, time) in averages {
            _ = try ask("/v1/twap?asset=BTC&provider=\(provider)&window=\(window)&at=\(iso(time))", oracle.twapReply(provider, window: window, at: time))
        }
        return replies
    }

    /// `fill=previous` with `to` in the future fills up to the window holding now, and no further.
    static func checkFillingStopsAtNow(_ server: ServeProcess) throws {
        let before = Int64(Date().timeIntervalSince1970 * 1000)
        let path = "/v1/candles?asset=BTC&provider=coinbase&interval=1h&from=\(StoreOracle.iso(at(0)))&to=\(StoreOracle.iso(before + 7_200_000))&fill=previous"
        let reply = try server.get(path)
        let after = Int64(Date().timeIntervalSince1970 * 1000)
        // An hour may turn while it is asked.
        let expected = Set([before, after].map { now in
            StoreOracle.json(oracle.filledCandles("coinbase", span: 60, from: at(0), to: before + 7_200_000, now: now))
        })
        #expect(reply.status == 200 && expected.contains(reply.body), "\(path)\nexpected one of \(expected)\ngot \(reply)")
        let last = try Self.candles(reply.body).last?.start
        #expect([before, after].map { $0.floored(to: 3_600_000) }.contains { $0 == last }, "\(reply.body)")
    }

    /// The candles of a `/v1/candles` body.
    static func candles(_ body: String) throws -> [StoreOracle.Candle] {
        let array = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [[String: Any]], "not a JSON array: \(body)")
        return try array.map { object in
            StoreOracle.Candle(start: try #require((object["start"] as? String).flatMap(StoreOracle.milliseconds(iso:)), "\(object)"),
                               open: try #require(object["open"] as? String), high: try #require(object["high"] as? String),
                               low: try #require(object["low"] as? String), close: try #require(object["close"] as? String),
                               count: try #require(object["count"] as? Int))
        }
    }
}
