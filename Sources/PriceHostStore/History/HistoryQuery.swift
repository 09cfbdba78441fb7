import FoundationEssentials
import PriceHostCore
import ProviderABI

/// What `/v1/candles`, `/v1/price` and `/v1/twap` (and `pricehost history`) ask the store: checked here once for
/// both, so that a bad parameter gets the same words from either. Times are Unix milliseconds.
package struct HistoryQuery: Sendable, Equatable {
    /// Which of the three questions.
    package enum Kind: Sendable, Equatable {
        case candles, price, twap

        /// The parameters it takes, as the HTTP routes name them.
        package var parameters: [String] {
            switch self {
            case .candles: ["asset", "currency", "provider", "aggregate", "interval", "from", "to", "fill"]
            case .price: ["asset", "currency", "provider", "aggregate", "at"]
            case .twap: ["asset", "currency", "provider", "aggregate", "window", "at"]
            }
        }
    }

    /// A parameter that is wrong, and why: the message names it.
    package struct Problem: Error, Equatable, CustomStringConvertible, Sendable {
        package var parameter: String
        package var message: String
        package var description: String { message }
    }

    package var kind: Kind
    package var asset = ""
    /// `currency`; the config's default when `nil`.
    package var currency: String?
    /// `provider=NAME` or `aggregate=median`; `nil` when neither was given.
    package var origin: QuoteOrigin?
    package var interval = CandleInterval.oneMinute
    package var from: Int64?
    package var to: Int64?
    package var fillPrevious = false
    package var at: Int64?
    /// `window`, in milliseconds, and as written.
    package var window: Int64 = 0
    package var windowText = ""

    /// The longest window one TWAP takes (it is checked against `rawRetentionDays` too).
    package static let longestWindow: Int64 = 3_650 * 86_400_000

    /// Reads `parameters` (percent-decoded), which may be only those `kind` takes.
    package static func parse(_ parameters: [(name: String, value: String)], kind: Kind) throws(Problem) -> HistoryQuery {
        var query = HistoryQuery(kind: kind)
        var seen = Set<String>()
        for (name, value) in parameters {
            do throws(QueryParameter.Problem) {
                guard kind.parameters.contains(name) else { throw QueryParameter.unknown(name, allowed: kind.parameters) }
                guard seen.insert(name).inserted else { throw QueryParameter.repeated(name) }
            } catch {
                throw Problem(parameter: name, message: error.message)
            }
            try query.read(name, value)
        }
        guard !query.asset.isEmpty else { throw Problem(parameter: "asset", message: "asset is required, e.g. asset=BTC") }
        if seen.contains("provider"), seen.contains("aggregate") {
            throw Problem(parameter: "aggregate", message: "give provider or aggregate=median, not both")
        }
        if let from = query.from, let to = query.to, from > to {
            throw Problem(parameter: "from", message: "from (\(Self.format(from))) is after to (\(Self.format(to)))")
        }
        if kind == .twap, query.windowText.isEmpty {
            throw Problem(parameter: "window", message: "window is required, e.g. window=1h")
        }
        if kind == .price, query.at == nil { throw Problem(parameter: "at", message: "at is required, an ISO 8601 time such as 2026-11-27T12:00:00Z") }
        return query
    }

    private mutating func read(_ name: String, _ value: String) throws(Problem) {
        // The medians are a series of their own, which no provider's can be: asked by their name, say how.
        if name == "provider", value == QuoteOrigin.median.providerText {
            throw Problem(parameter: name, message: "the medians are asked with aggregate=median, not provider=median")
        }
        do throws(QueryParameter.Problem) {
            switch name {
            case "asset": asset = try QueryParameter.asset(value); return
            case "currency": currency = try QueryParameter.currency(value); return
            case "provider": origin = .provider(try QueryParameter.provider(value)); return
            case "aggregate": try QueryParameter.aggregate(value); origin = .median; return
            default: break
            }
        } catch {
            // A provider's name ends "; name one": a history query asks one provider, not a list.
            throw Problem(parameter: name, message: error.message + (name == "provider" ? "; name one" : ""))
        }
        switch name {
        case "interval":
            guard let interval = CandleInterval(rawValue: value) else {
                throw Problem(parameter: name, message: "unknown interval \(JSONValue.quoted(value)); expected \(CandleInterval.names)")
            }
            self.interval = interval
        case "fill":
            guard value == "previous" else { throw Problem(parameter: name, message: "fill takes previous, not \(JSONValue.quoted(value))") }
            fillPrevious = true
        case "window":
            guard let milliseconds = Self.duration(value), milliseconds > 0, milliseconds <= Self.longestWindow else {
                throw Problem(parameter: name, message: "window must be a duration such as 90s, 15m, 1h or 7d, not \(JSONValue.quoted(value))")
            }
            window = milliseconds
            windowText = value
        default: // from, to, at
            guard let date = ISO8601Timestamp.parse(value) else {
                throw Problem(parameter: name, message: "\(name) must be an ISO 8601 time such as 2026-11-27T12:00:00Z, not \(JSONValue.quoted(value))")
            }
            // To the millisecond, never past the time written: `at` and `to` down, `from` up.
            let milliseconds = Self.milliseconds(value, parsed: date, roundingUp: name == "from")
            switch name {
            case "from": from = milliseconds
            case "to": to = milliseconds
            default: at = milliseconds
            }
        }
    }

    /// `90s`, `15m`, `1h`, `7d` (a whole number and a unit) in milliseconds; `nil` for anything else.
    package static func duration(_ text: String) -> Int64? {
        guard let unit = text.last, let count = Int64(text.dropLast()), count > 0, count <= 100_000_000,
              text.dropLast().utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        switch unit {
        case "s": return count * 1_000
        case "m": return count * 60_000
        case "h": return count * 3_600_000
        case "d": return count * 86_400_000
        default: return nil
        }
    }

    /// `date` in whole Unix milliseconds.
    package static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// `text`, an ISO 8601 time read as `date`, in whole Unix milliseconds: a fraction finer than a millisecond is cut
    /// down to the millisecond before it (`roundingUp`: raised to the one after it). Read from the text's digits, not
    /// from `date`'s binary seconds, which cannot always tell .999999 from the next second.
    package static func milliseconds(_ text: String, parsed date: Date, roundingUp: Bool) -> Int64 {
        let bytes = Array(text.utf8)
        guard bytes.count > 23, bytes[19] == UInt8(ascii: ".") else { return milliseconds(date) }
        var end = 20
        var finer = false
        while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) {
            if end >= 23, bytes[end] != UInt8(ascii: "0") { finer = true }
            end += 1
        }
        // The same time with its fraction cut to three digits: whole milliseconds, which `date`'s seconds hold exactly.
        guard end > 23, let cut = ISO8601Timestamp.parse(String(decoding: bytes[..<23] + bytes[end...], as: UTF8.self)) else {
            return milliseconds(date)
        }
        return milliseconds(cut) + (finer && roundingUp ? 1 : 0)
    }

    /// Unix milliseconds as ISO 8601 (with milliseconds when there are some).
    package static func format(_ milliseconds: Int64) -> String {
        ISO8601Timestamp.format(Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}
