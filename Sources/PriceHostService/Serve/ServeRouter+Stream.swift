import FoundationEssentials
import PriceHostCore
import ProviderABI

extension ServeRouter {
    /// `GET /v1/stream?asset=BTC,ETH[&interval=5][&currency=EUR][&provider=a,b]`: Server-Sent Events,
    /// one `data:` line per quote per tick, `event: error` for a failure, each with an `id:`; a
    /// comment heartbeat after `serve.heartbeatSeconds` (15) of silence. Clients of one asset share
    /// its fetch; one that reconnects with `Last-Event-ID` first gets the events it missed (60 s).
    package func stream(_ request: ServeRequest, _ generation: ServeGeneration) -> ServeAnswer {
        let query: ServeQuery
        do {
            query = try ServeQuery.parse(request.query, allowed: ["asset", "interval", "currency", "provider"])
        } catch {
            return .response(.error(400, error.message), route: "stream")
        }
        // A provider nothing provides is refused now, not on every tick.
        if case .failure(let rejection) = Self.routes(for: query.assets, providers: query.providers, in: generation) {
            return .response(rejection.response, route: "stream")
        }
        let currency = query.currency ?? generation.config.defaultCurrency
        let topics = query.assets.map { asset in
            StreamHub.TopicKey(asset: asset, currency: currency, providers: query.providers, intervalMilliseconds: query.intervalMilliseconds)
        }
        return .stream(StreamPlan(topics: topics, lastEventID: request.header("last-event-id"), hub: hub, metrics: metrics))
    }

    /// The feed that pushes `topic`, when its route's first provider streams (`"stream": true`):
    /// its updates as `data: {…}` with `"source"` and `"receivedAt"`, each kept in `metrics`
    /// (its history and price gauges; an update two topics share is kept once). `nil`: the topic is polled.
    package static func feed(for topic: StreamHub.TopicKey, state: ServeState, metrics: ServeMetrics) -> StreamHub.Push? {
        let generation = state.current
        guard let feeds = generation.feeds,
              let route = try? generation.service.route(asset: topic.asset, explicitProviders: topic.providers),
              let provider = route.providers.first, feeds.hasFeed(provider) else { return nil }
        let pair = QuoteRequest(asset: topic.asset, currency: topic.currency)
        return { deliver in
            feeds.subscribe(provider: provider, pair: pair) { update in
                metrics.record(update.quote, amount: update.amountText, source: update.source, receivedAt: update.receivedAt)
                deliver(update.json(between: "data: ", and: "\n\n"), update.fleetEvent.map { EventID(epoch: $0.epoch, sequence: $0.sequence) })
            }
        }
    }

    /// The fleet's epoch (from a connection's thread, for a `Last-Event-ID`): known already, or read
    /// from Redis now, bounded by its command timeout, on an instance whose feeds have not run yet.
    package static func fleetEpoch(state: ServeState) -> UInt64? {
        guard let feeds = state.current.feeds else { return nil }
        return feeds.fleetEpoch ?? BlockingBridge.wait { await feeds.loadFleetEpoch() }
    }

    /// The fleet's kept events of `topic` after `sequence`, as SSE events with their ids (from a connection's thread).
    package static func fleetBacklog(for topic: StreamHub.TopicKey, after sequence: UInt64, state: ServeState) -> [(UInt64, String)] {
        let generation = state.current
        guard let feeds = generation.feeds,
              let route = try? generation.service.route(asset: topic.asset, explicitProviders: topic.providers),
              let provider = route.providers.first, feeds.hasFeed(provider) else { return [] }
        let pair = QuoteRequest(asset: topic.asset, currency: topic.currency)
        let updates = BlockingBridge.wait { await feeds.fleetBacklog(provider: provider, pair: pair, after: sequence) ?? [] }
        return updates.compactMap { update in
            update.fleetEvent.map { ($0.sequence, "id: \(EventID(epoch: $0.epoch, sequence: $0.sequence).text)\ndata: \(update.json)\n\n") }
        }
    }

    /// One tick of `topic`: its quote as `data: {…}`, or `event: error` with the failure, from the generation served now.
    package static func event(for topic: StreamHub.TopicKey, state: ServeState) async -> String {
        let service = state.current.service
        let result: Result<Quote, any Error>
        do {
            let route = try service.route(asset: topic.asset, explicitProviders: topic.providers)
            result = await service.fetch([route], currency: topic.currency)[0]
        } catch {
            result = .failure(error)
        }
        switch result {
        case .success(let quote):
            return "data: \(QuoteFormatter.json(quote))\n\n"
        case .failure(let error):
            let line = QuoteFormatter.failureLine(asset: topic.asset, currency: topic.currency, message: "\(error)", at: Date())
            return "event: error\ndata: \(line)\n\n"
        }
    }
}
