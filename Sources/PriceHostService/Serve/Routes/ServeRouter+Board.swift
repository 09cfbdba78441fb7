import PriceHostCore
import ProviderABI

extension ServeRouter {
    /// The parameters the board's page takes (its script reads them; the server checks them first).
    static let boardParameters = ["asset", "currency", "interval"]

    /// `GET /[?asset=BTC,ETH][&currency=EUR][&interval=2]`: the board, one page with its style and
    /// script inline (``BoardPage``). It holds no prices and no config, so it needs no token: its
    /// script asks `/v1/board`, `/v1/candles` (or `/v1/history`) and `/v1/stream` for those, with
    /// the token the user gives it. Parameters are checked as `/v1/prices` checks them, with the same 400.
    func board(_ request: ServeRequest) -> ServeResponse {
        do {
            _ = try ServeQuery.parse(request.query, allowed: Self.boardParameters, assetRequired: false)
        } catch {
            return .error(400, error.message)
        }
        return BoardPage.response
    }

    /// `GET /v1/board[?asset=BTC,ETH][&currency=EUR]`: what the board shows, from the config served
    /// now. Per asset (those asked, else every one of the config's `assets`, by code), the providers
    /// its route names, in order, with what the page needs to tell a stale price: whether the
    /// provider streams, its `maxAgeSeconds` (the asset's, else the provider's), and for a stream its
    /// `staleAfterSeconds` and `fallbackIntervalSeconds`. An asset nothing provides has `"error"`.
    /// Names and numbers only: no URL, no setting a plugin reads, no secret.
    func boardConfig(_ request: ServeRequest, _ generation: ServeGeneration) -> ServeResponse {
        let query: ServeQuery
        do {
            query = try ServeQuery.parse(request.query, allowed: ["asset", "currency"], assetRequired: false)
        } catch {
            return .error(400, error.message)
        }
        let config = generation.config
        let assets = query.assets.isEmpty ? config.assets.keys.sorted() : query.assets
        let entries: [JSONValue] = assets.map { asset in
            let route: QuoteService.Route
            do throws(RoutingError) {
                route = try generation.service.route(asset: asset, explicitProviders: nil)
            } catch {
                return .object(JSONObject([("asset", .string(asset)), ("error", .string(error.description))]))
            }
            let providers: [JSONValue] = route.providers.map { provider in
                let policy = config.policy(for: provider)
                let streams = generation.feeds?.hasFeed(provider) ?? false
                var members: [(String, JSONValue)] = [("name", .string(provider)), ("stream", .bool(streams))]
                if let seconds = config.assets[asset]?.maxAgeSeconds ?? policy.maxAgeSeconds {
                    members.append(("maxAgeSeconds", .number(String(seconds))))
                }
                if streams {
                    members.append(("staleAfterSeconds", .number(Durations.seconds(policy.stream.staleAfter))))
                    members.append(("fallbackIntervalSeconds", .number(Durations.seconds(policy.stream.fallbackInterval))))
                }
                return .object(JSONObject(members))
            }
            return .object(JSONObject([("asset", .string(asset)), ("providers", .array(providers))]))
        }
        return .json(200, JSONValue.object(JSONObject([
            ("currency", .string(query.currency ?? config.defaultCurrency)),
            ("heartbeatSeconds", .number(Durations.seconds(.milliseconds(config.serve.heartbeatMilliseconds)))),
            ("assets", .array(entries)),
        ])).serialized, headers: [("Cache-Control", "no-store")])
    }
}
