import FoundationEssentials
import PriceHostCore
import PriceHostStore
import ProviderABI

extension ServeRouter {
    /// `GET /v1/history?asset=BTC[&currency=EUR][&provider=a,b][&minutes=15]`: the quotes of one pair in the
    /// last `minutes`: `{"asset","currency","minutes","points":[{"provider","amount","timestamp","source"},…]}`, oldest first.
    /// From the quote store when there is one (any `minutes` within `rawRetentionDays`; the quotes whose own time is
    /// in the window), else from ``ServeMetrics/history`` (1 to 60 minutes; the quotes received in it).
    /// 400 for bad parameters, with the words of `/v1/prices`.
    package func history(_ request: ServeRequest, _ generation: ServeGeneration, now: Date = Date()) -> ServeResponse {
        let query: ServeQuery
        let store = metrics.store.store
        do {
            query = try ServeQuery.parse(request.query, allowed: ["asset", "currency", "provider", "minutes"],
                                         maximumMinutes: store.map { $0.settings.rawRetentionDays * 1_440 } ?? QuoteHistory.maximumMinutes)
        } catch {
            return .error(400, error.message)
        }
        guard query.assets.count == 1 else {
            return .error(400, "history takes one asset, not \(query.assets.count); ask once per asset")
        }
        let asset = query.assets[0]
        // A provider nothing provides is refused as /v1/prices refuses it.
        if query.providers != nil, case .failure(let rejection) = Self.routes(for: [asset], providers: query.providers, in: generation) {
            return rejection.response
        }
        let currency = query.currency ?? generation.config.defaultCurrency
        let since = now.addingTimeInterval(-Double(query.minutes * 60))
        var points = metrics.history.points(asset: asset, currency: currency, providers: query.providers, since: since).map {
            HistoryPoint(provider: $0.provider, amount: DecimalAmount.format($0.point.amount), timestamp: $0.point.timestamp, source: $0.point.source)
        }
        if let store {
            // The store's, and those of the last moments that its writer has not written yet (kept in memory too).
            do throws(StoreReadError) {
                let stored = try store.points(asset: asset, currency: currency, providers: query.providers, since: HistoryQuery.milliseconds(since)).map {
                    HistoryPoint(provider: $0.series.origin.providerText, amount: $0.amount,
                                 timestamp: Date(timeIntervalSince1970: Double($0.timestamp) / 1000), source: $0.source)
                }
                let kept = Set(stored.map(\.key))
                points = (stored + points.filter { !kept.contains($0.key) }).sorted { ($0.timestamp, $0.provider) < ($1.timestamp, $1.provider) }
            } catch {
                return .error(503, error.description)
            }
        }
        return .json(200, JSONValue.object(JSONObject([
            ("asset", .string(asset)),
            ("currency", .string(currency)),
            ("minutes", .number(String(query.minutes))),
            ("points", .array(points.map { point in
                .object(JSONObject([
                    ("provider", .string(point.provider)),
                    ("amount", .string(point.amount)),
                    ("timestamp", .string(ISO8601Timestamp.format(point.timestamp))),
                    ("source", .string(point.source.rawValue)),
                ]))
            })),
        ])).serialized)
    }
}

/// One point of `/v1/history`'s answer.
private struct HistoryPoint {
    var provider: String
    var amount: String
    var timestamp: Date
    var source: QuoteSource

    /// What tells a quote kept in memory from the same one in the store: its provider, time (to the millisecond) and amount.
    var key: String { "\(provider) \(HistoryQuery.milliseconds(timestamp)) \(amount)" }
}
