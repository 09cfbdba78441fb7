import FoundationEssentials
import PriceHostCore
import PriceHostStore
import ProviderABI

extension ServeRouter {
    /// `GET /v1/candles`, `/v1/price` and `/v1/twap`: read from the quote store (docs/history.md).
    /// 400 naming a bad parameter, 404 when there is no price, 503 without a store.
    ///
    /// A price is one indexed lookup, answered on the event loop from SQLite's file; candles and TWAPs read more,
    /// and PostgreSQL is a round trip, so those are answered on the cooperative pool.
    func stored(_ kind: HistoryQuery.Kind, _ request: ServeRequest, _ generation: ServeGeneration) -> ServeReply {
        let route = switch kind {
        case .candles: "candles"
        case .price: "price"
        case .twap: "twap"
        }
        let query: HistoryQuery
        do throws(HistoryQuery.Problem) {
            query = try HistoryQuery.parse(request.query, kind: kind)
        } catch {
            return .response(.error(400, error.message), route: route)
        }
        let store: QuoteStore
        switch metrics.store {
        case .off: return .response(.error(503, "no quote store: the config turns it off (store.enabled is false)"), route: route)
        case .unavailable(let why): return .response(.error(503, "no quote store: \(why)"), route: route)
        case .open(let open): store = open
        }
        let config = generation.config, clock = metrics.clock
        let answer: @Sendable () -> ServeAnswer = {
            switch store.answer(query, config: config, now: HistoryQuery.milliseconds(clock.wallNow)) {
            case .success(let result): .response(.json(200, result.json), route: route)
            case .failure(let failure): .response(.json(failure.status, failure.json), route: route)
            }
        }
        return kind == .price && store.readsLocally ? .now(answer()) : .later { answer() }
    }
}
