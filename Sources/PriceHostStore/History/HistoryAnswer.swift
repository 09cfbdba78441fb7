import FoundationEssentials
import PriceHostCore
import ProviderABI

/// What the store answers a ``HistoryQuery``: candles, one price, or a TWAP.
package enum HistoryResult: Sendable, Equatable {
    case candles(SeriesKey, [Candle])
    /// The last quote at or before `at`.
    case price(StoredQuote, at: Int64)
    case twap(SeriesKey, TimeWeightedAverage, window: String, at: Int64)
}

/// Why there is no answer: the HTTP status it is served with (400 bad input, 404 no price, 503 no store) and why.
package struct HistoryFailure: Error, Equatable, CustomStringConvertible, Sendable {
    package var status: Int
    package var message: String
    /// More members of the JSON body, after `error` (a 404's `at`, `lastTimestamp`, `ageMs`).
    package var members: [(String, JSONValue)] = []
    /// The parameter at fault, for a 400.
    package var parameter: String?

    package init(status: Int, message: String, members: [(String, JSONValue)] = [], parameter: String? = nil) {
        self.status = status
        self.message = message
        self.members = members
        self.parameter = parameter
    }

    package var description: String { message }

    /// `{"error": message, …members}`.
    package var json: String {
        JSONValue.object(JSONObject([("error", JSONValue.string(message))] + members)).serialized
    }

    package static func == (lhs: HistoryFailure, rhs: HistoryFailure) -> Bool {
        lhs.status == rhs.status && lhs.message == rhs.message && lhs.parameter == rhs.parameter
    }
}

extension QuoteStore {
    /// The most candles one answer holds.
    package static let candleLimit = 10_000
    /// How old the price at a time may be when neither the asset nor the provider sets `maxAgeSeconds`.
    package static let defaultMaxAgeSeconds = 3_600

    /// Answers `query` at `now` (Unix milliseconds), with `config`'s default currency, routes and ages.
    package func answer(_ query: HistoryQuery, config: Config, now: Int64) -> Result<HistoryResult, HistoryFailure> {
        let currency = query.currency ?? config.defaultCurrency
        let rawFloor = now - Int64(settings.rawRetentionDays) * 86_400_000
        do throws(StoreReadError) {
            let origin: QuoteOrigin
            switch try self.origin(for: query, currency: currency, config: config) {
            case .success(let found): origin = found
            case .failure(let failure): return .failure(failure)
            }
            let series = SeriesKey(asset: query.asset, currency: currency, origin: origin)
            switch query.kind {
            case .candles:
                let to = query.to ?? now
                let from = query.from ?? to - 86_400_000
                // `from` after a given `to` is refused as the query is read; after the default, now, here.
                if from > to {
                    return .failure(HistoryFailure(status: 400, message: "from (\(HistoryQuery.format(from))) is after to (now, \(HistoryQuery.format(to)), when to is not given)", parameter: "from"))
                }
                switch try candles(series, interval: query.interval, from: from, to: to, fillPrevious: query.fillPrevious, now: now,
                                   limit: Self.candleLimit) {
                case .candles(let candles): return .success(.candles(series, candles))
                case .tooMany(let limit):
                    return .failure(HistoryFailure(status: 400, message: "the answer would hold more than \(limit) candles; narrow from and to, or ask a longer interval", parameter: "from"))
                }
            case .price:
                let at = query.at ?? now
                guard at >= rawFloor else {
                    return .failure(HistoryFailure(status: 400, message: "at (\(HistoryQuery.format(at))) is older than the store keeps quotes (rawRetentionDays: \(settings.rawRetentionDays))", parameter: "at"))
                }
                return try price(series, at: at, config: config)
            case .twap:
                let at = query.at ?? now
                guard at - query.window >= rawFloor else {
                    return .failure(HistoryFailure(status: 400, message: "the window \(query.windowText) before \(HistoryQuery.format(at)) reaches past what the store keeps (rawRetentionDays: \(settings.rawRetentionDays))", parameter: "window"))
                }
                guard let average = try timeWeightedAverage(series, window: query.window, at: at, now: now) else {
                    return .failure(HistoryFailure(status: 404, message: "no price of \(query.asset)-\(currency) from \(origin.providerText) in the \(query.windowText) before \(HistoryQuery.format(at))",
                                                   members: [("at", .string(HistoryQuery.format(at)))]))
                }
                return .success(.twap(series, average, window: query.windowText, at: at))
            }
        } catch {
            return .failure(HistoryFailure(status: 503, message: error.description))
        }
    }

    private func price(_ series: SeriesKey, at: Int64, config: Config) throws(StoreReadError) -> Result<HistoryResult, HistoryFailure> {
        let name = "\(series.asset)-\(series.currency) from \(series.origin.providerText)"
        guard let quote = try quote(series, atOrBefore: at) else {
            return .failure(HistoryFailure(status: 404, message: "no price of \(name) at or before \(HistoryQuery.format(at))",
                                           members: [("at", .string(HistoryQuery.format(at)))]))
        }
        let maxAge = Self.maxAgeSeconds(series, config: config)
        let age = at - quote.timestamp
        guard age <= Int64(maxAge) * 1000 else {
            return .failure(HistoryFailure(status: 404,
                message: "no price of \(name) at \(HistoryQuery.format(at)): the last one, at \(HistoryQuery.format(quote.timestamp)), was \(Self.ageText(age)) old, older than \(maxAge) s",
                members: [("at", .string(HistoryQuery.format(at))), ("lastTimestamp", .string(HistoryQuery.format(quote.timestamp))),
                          ("ageMs", .number(String(age))), ("maxAgeSeconds", .number(String(maxAge)))]))
        }
        return .success(.price(quote, at: at))
    }

    /// `assets.X.maxAgeSeconds`, else the provider's, else ``defaultMaxAgeSeconds``.
    static func maxAgeSeconds(_ series: SeriesKey, config: Config) -> Int {
        if let seconds = config.assets[series.asset]?.maxAgeSeconds { return seconds }
        if case .provider(let name) = series.origin, let seconds = config.providerPolicies[name]?.maxAgeSeconds { return seconds }
        return defaultMaxAgeSeconds
    }

    /// `1 h 2 min 3 s`, `450 ms`.
    package static func ageText(_ milliseconds: Int64) -> String {
        guard milliseconds >= 1000 else { return "\(milliseconds) ms" }
        let seconds = milliseconds / 1000
        let parts = [(seconds / 86_400, "d"), (seconds / 3600 % 24, "h"), (seconds / 60 % 60, "min"), (seconds % 60, "s")]
        return parts.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: " ")
    }

    /// The origin asked, or, when none was: the first of the asset's configured providers the store holds, or the only one it holds.
    private func origin(for query: HistoryQuery, currency: String, config: Config) throws(StoreReadError) -> Result<QuoteOrigin, HistoryFailure> {
        if let origin = query.origin { return .success(origin) }
        let held = try origins(asset: query.asset, currency: currency)
        let configured = config.assets[query.asset]?.providerOrder ?? config.defaults.provider.map { [$0] } ?? []
        if let first = configured.map(QuoteOrigin.provider).first(where: held.contains) { return .success(first) }
        if held.count == 1 { return .success(held[0]) }
        if held.isEmpty {
            return .failure(HistoryFailure(status: 404, message: "the store holds no quotes of \(query.asset)-\(currency)"))
        }
        return .failure(HistoryFailure(status: 400, message: "the store holds \(query.asset)-\(currency) from \(held.map(\.providerText).joined(separator: ", ")): name one with provider, or aggregate=median", parameter: "provider"))
    }
}
