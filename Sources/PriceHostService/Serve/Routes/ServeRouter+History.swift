import FoundationEssentials
import PriceHostCore
import ProviderABI

extension ServeRouter {
    /// `GET /v1/history?asset=BTC[&currency=EUR][&provider=a,b][&minutes=15]`: the quotes of one pair this
    /// instance got in the last `minutes` (1 to 60), from ``ServeMetrics/history``:
    /// `{"asset","currency","minutes","points":[{"provider","amount","timestamp","source"},…]}`, oldest first.
    /// 400 for bad parameters, with the words of `/v1/prices`.
    package func history(_ request: ServeRequest, _ generation: ServeGeneration, now: Date = Date()) -> ServeResponse {
        let query: ServeQuery
        do {
            query = try ServeQuery.parse(request.query, allowed: ["asset", "currency", "provider", "minutes"])
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
        let points = metrics.history.points(asset: asset, currency: currency, providers: query.providers, since: since)
        return .json(200, JSONValue.object(JSONObject([
            ("asset", .string(asset)),
            ("currency", .string(currency)),
            ("minutes", .number(String(query.minutes))),
            ("points", .array(points.map { provider, point in
                .object(JSONObject([
                    ("provider", .string(provider)),
                    ("amount", .string(DecimalAmount.format(point.amount))),
                    ("timestamp", .string(ISO8601Timestamp.format(point.timestamp))),
                    ("source", .string(point.source.rawValue)),
                ]))
            })),
        ])).serialized)
    }
}
