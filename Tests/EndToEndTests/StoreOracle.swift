import Foundation

/// What the quote store must answer for quotes a test recorded, worked out from the definitions in
/// docs/serve.md with Foundation's `Decimal` and none of the store's code: candles, the price at a
/// time and time-weighted averages, each as the JSON body serve sends.
struct StoreOracle {
    /// One quote as serve got it: whose, the venue's time (Unix ms), the exact amount text
    /// (as serve writes it: no trailing zeros), and its place in the order serve got them.
    struct Quote {
        var provider: String
        var time: Int64
        var amount: String
        var arrival: Int
        /// The venue's bid and ask as answers write them, when it gave them.
        var bid: String? = nil
        var ask: String? = nil

        var value: Decimal { Decimal(string: amount, locale: Locale(identifier: "en_US_POSIX"))! }
    }

    struct Candle: Equatable {
        var start: Int64
        var open: String, high: String, low: String, close: String
        var count: Int

        var json: String {
            #"{"start":"\#(StoreOracle.iso(start))","open":"\#(open)","high":"\#(high)","low":"\#(low)","close":"\#(close)","count":\#(count)}"#
        }
    }

    /// An interval's length in minutes, by its name in `/v1/candles`.
    static let spans: [String: Int64] = ["1m": 1, "5m": 5, "15m": 15, "1h": 60, "4h": 240, "1d": 1_440]

    let quotes: [Quote]
    let asset = "BTC"
    let currency = "USD"
    /// How old a price at a time may be: the default `maxAgeSeconds` of `/v1/price`.
    let maxAgeMilliseconds: Int64 = 3_600_000

    /// `provider`'s quotes by venue time; of the same time, in the order they came.
    func series(_ provider: String) -> [Quote] {
        quotes.filter { $0.provider == provider }.sorted { ($0.time, $0.arrival) < ($1.time, $1.arrival) }
    }

    // MARK: Candles

    /// The candles with a quote, of windows `span` minutes long (aligned to UTC, as Unix time is) whose start is in [`from`, `to`].
    func candles(_ provider: String, span: Int64, from: Int64, to: Int64) -> [Candle] {
        allCandles(provider, span: span).filter { $0.start >= from && $0.start <= to }
    }

    /// With `fill=previous`: every window from the first real one (or `from`, when one is before it) through `to`,
    /// but not past the window holding `now`, a window without a quote being the previous close four times with count 0.
    func filledCandles(_ provider: String, span: Int64, from: Int64, to: Int64, now: Int64) -> [Candle] {
        let length = span * 60_000
        let all = allCandles(provider, span: span)
        let real = all.filter { $0.start >= from && $0.start <= to }
        let firstWindow = (from + length - 1).floored(to: length)
        let seed = all.last { $0.start < firstWindow }
        guard let first = seed != nil ? firstWindow : real.first?.start else { return [] }
        let last = max(min(to.floored(to: length), now.floored(to: length)), real.last?.start ?? first)
        var previous = seed?.close
        var answer: [Candle] = []
        for start in stride(from: first, through: last, by: Int(length)) {
            if let candle = real.first(where: { $0.start == start }) {
                answer.append(candle)
                previous = candle.close
            } else if let close = previous {
                answer.append(Candle(start: start, open: close, high: close, low: close, close: close, count: 0))
            }
        }
        return answer
    }

    /// Every window of `provider` with a quote: open the earliest by venue time, close the latest
    /// (of one time, the first and the last got), high and low compared as exact decimals.
    private func allCandles(_ provider: String, span: Int64) -> [Candle] {
        let length = span * 60_000
        let windows = Dictionary(grouping: series(provider)) { $0.time.floored(to: length) }
        return windows.keys.sorted().map { start in
            let inWindow = windows[start]!
            return Candle(start: start, open: inWindow.first!.amount,
                          high: inWindow.max { $0.value < $1.value }!.amount, low: inWindow.min { $0.value < $1.value }!.amount,
                          close: inWindow.last!.amount, count: inWindow.count)
        }
    }

    /// `candles` (of the same interval's windows) rolled up into windows of `span` minutes: the first open, the last close,
    /// the highest high, the lowest low, the counts added.
    static func rolledUp(_ candles: [Candle], span: Int64) -> [Candle] {
        let length = span * 60_000
        let windows = Dictionary(grouping: candles) { $0.start.floored(to: length) }
        return windows.keys.sorted().map { start in
            let parts = windows[start]!.sorted { $0.start < $1.start }
            func value(_ text: String) -> Decimal { Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))! }
            return Candle(start: start, open: parts.first!.open, high: parts.map(\.high).max { value($0) < value($1) }!,
                          low: parts.map(\.low).min { value($0) < value($1) }!, close: parts.last!.close,
                          count: parts.reduce(0) { $0 + $1.count })
        }
    }

    static func json(_ candles: [Candle]) -> String { "[" + candles.map(\.json).joined(separator: ",") + "]" }

    // MARK: The price at a time

    /// The last quote at or before `time`: the latest by venue time, of one time the last got.
    func quote(_ provider: String, atOrBefore time: Int64) -> Quote? {
        series(provider).last { $0.time <= time }
    }

    /// `/v1/price?asset=BTC&provider=P&at=…`'s status and body.
    func priceReply(_ provider: String, at: Int64) -> (status: Int, body: String) {
        let pair = "\(asset)-\(currency) from \(provider)"
        guard let quote = quote(provider, atOrBefore: at) else {
            return (404, #"{"error":"no price of \#(pair) at or before \#(Self.iso(at))","at":"\#(Self.iso(at))"}"#)
        }
        let age = at - quote.time
        guard age <= maxAgeMilliseconds else {
            return (404, #"{"error":"no price of \#(pair) at \#(Self.iso(at)): the last one, at \#(Self.iso(quote.time)), was \#(Self.ageText(age)) old, older than \#(maxAgeMilliseconds / 1000) s","at":"\#(Self.iso(at))","lastTimestamp":"\#(Self.iso(quote.time))","ageMs":\#(age),"maxAgeSeconds":\#(maxAgeMilliseconds / 1000)}"#)
        }
        let sides = [("bid", quote.bid), ("ask", quote.ask)].compactMap { name, side in side.map { #","\#(name)":"\#($0)""# } }.joined()
        return (200, #"{"asset":"\#(asset)","currency":"\#(currency)","amount":"\#(quote.amount)","provider":"\#(provider)","timestamp":"\#(Self.iso(quote.time))","at":"\#(Self.iso(at))","ageMs":\#(age)\#(sides)}"#)
    }

    /// `1 h 2 min 30 s`: whole units, the zero ones left out.
    static func ageText(_ milliseconds: Int64) -> String {
        let seconds = milliseconds / 1000
        let parts = [(seconds / 86_400, "d"), (seconds / 3_600 % 24, "h"), (seconds / 60 % 60, "min"), (seconds % 60, "s")]
        return parts.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: " ")
    }

    // MARK: Time-weighted average

    /// The TWAP over (`at` − `window`, `at`]: each price weighted by the milliseconds it was in force, the one in force
    /// at the window's start carried in, the time before the first price left out; the amount rounded half to even
    /// to 12 places, the covered share to 6. `nil` when no price was in force in the window.
    func twap(_ provider: String, window: Int64, at: Int64) -> (amount: String, count: Int, coverage: String)? {
        let start = at - window
        let inside = series(provider).filter { $0.time > start && $0.time <= at }
        // Each price from when it came into force; of several at one millisecond, the last got is the one in force.
        var changes: [(since: Int64, value: Decimal)] = quote(provider, atOrBefore: start).map { [(start, $0.value)] } ?? []
        for quote in inside {
            if changes.last?.since == quote.time { changes.removeLast() }
            changes.append((quote.time, quote.value))
        }
        var weighted = Decimal(0)
        var covered: Int64 = 0
        for (index, change) in changes.enumerated() {
            let until = index + 1 < changes.count ? changes[index + 1].since : at
            weighted += change.value * Decimal(until - change.since)
            covered += until - change.since
        }
        guard covered > 0 else { return nil }
        return (Self.roundedHalfEven(weighted / Decimal(covered), places: 12), inside.count,
                Self.roundedHalfEven(Decimal(covered) / Decimal(window), places: 6))
    }

    /// `/v1/twap?asset=BTC&provider=P&window=W&at=…`'s status and body.
    func twapReply(_ provider: String, window: String, at: Int64) -> (status: Int, body: String) {
        guard let average = twap(provider, window: Self.milliseconds(ofWindow: window)!, at: at) else {
            return (404, #"{"error":"no price of \#(asset)-\#(currency) from \#(provider) in the \#(window) before \#(Self.iso(at))","at":"\#(Self.iso(at))"}"#)
        }
        return (200, #"{"asset":"\#(asset)","currency":"\#(currency)","provider":"\#(provider)","amount":"\#(average.amount)","count":\#(average.count),"coverage":"\#(average.coverage)","window":"\#(window)","at":"\#(Self.iso(at))"}"#)
    }

    static func milliseconds(ofWindow text: String) -> Int64? {
        guard let count = Int64(text.dropLast()) else { return nil }
        switch text.last {
        case "s": return count * 1_000
        case "m": return count * 60_000
        case "h": return count * 3_600_000
        case "d": return count * 86_400_000
        default: return nil
        }
    }

    /// `value` to `places` decimal places, half to even, as plain text without trailing zeros.
    static func roundedHalfEven(_ value: Decimal, places: Int) -> String {
        var value = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, places, .bankers)
        return NSDecimalNumber(decimal: rounded).stringValue
    }

    // MARK: Times

    /// Unix milliseconds as serve writes them: `2026-11-27T17:00:05Z`, or `…05.250Z` with milliseconds.
    static func iso(_ milliseconds: Int64) -> String {
        let seconds = milliseconds.floored(to: 1000)
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        let whole = formatter.string(from: Date(timeIntervalSince1970: Double(seconds / 1000)))
        let fraction = milliseconds - seconds
        return fraction == 0 ? whole : whole.dropLast() + String(format: ".%03dZ", Int(fraction))
    }

    /// The Unix milliseconds of a time serve wrote.
    static func milliseconds(iso text: String) -> Int64? {
        let formatter = ISO8601DateFormatter()
        if text.contains(".") { formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds] }
        return formatter.date(from: text).map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
    }
}

extension Int64 {
    /// Rounded down to a multiple of `step`.
    func floored(to step: Int64) -> Int64 {
        let remainder = self % step
        return remainder < 0 ? self - remainder - step : self - remainder
    }
}
