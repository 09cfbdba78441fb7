import FoundationEssentials
import PriceHostCore
import ProviderABI

extension ServeRouter {
    /// `GET /v1/stream?asset=BTC,ETH[&interval=5][&currency=EUR][&provider=a,b][&deviationBps=25][&heartbeatSeconds=60][&maxAgeSeconds=30]`: Server-Sent Events,
    /// one `data:` line per quote per tick, `event: error` for a failure, each with an `id:`; a
    /// comment heartbeat after `serve.heartbeatSeconds` (15) of silence. Clients of one asset share
    /// its fetch; one that reconnects with `Last-Event-ID` first gets the events it missed (60 s).
    ///
    /// A `Last-Event-ID` the fleet may have given is checked against the fleet's epoch, and its
    /// missed events read from Redis, on the cooperative pool (``ServeReply/later(_:)``) before the stream starts.
    ///
    /// `deviationBps`, `heartbeatSeconds` and `maxAgeSeconds` give the client a ``DeliveryRule`` of its own (``DeliveryFilter``).
    package func stream(_ request: ServeRequest, _ generation: ServeGeneration) -> ServeReply {
        let query: ServeQuery
        do {
            query = try ServeQuery.parse(request.query, allowed: ["asset", "interval", "currency", "provider"] + ServeQuery.deliveryParameters)
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
        let lastEventID = request.header("last-event-id")
        let plan = StreamPlan(topics: topics, lastEventID: lastEventID, rule: query.rule, hub: hub, metrics: metrics)
        // The fleet's epoch, once known, is compared without waiting. The hub's own epoch is no guide: the fleet's may be
        // the same millisecond (an instance that made both at its start), and an id of the fleet's is resumed from the fleet.
        guard let asked = lastEventID.flatMap(EventID.init(parsing:)), let feeds = generation.feeds,
              feeds.fleetEpoch.map({ $0 == asked.epoch }) ?? true else {
            return .now(.stream(plan))
        }
        let state = self.state
        return .later {
            var resumed = plan
            resumed.fleet = await Self.fleetResume(asked, topics: topics, state: state)
            return .stream(resumed)
        }
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
                // Relayed by the fleet: the feed's holder wrote it to a store the fleet shares (``ServeMetrics/keepHeld(_:)``).
                metrics.record(update, toStore: update.fleetEvent == nil || !metrics.store.isShared)
                deliver(update.json(between: "data: ", and: "\n\n"), update.fleetEvent.map { EventID(epoch: $0.epoch, sequence: $0.sequence) })
            }
        }
    }

    /// What a client resuming with `asked` missed of the fleet's events: `nil` unless the fleet's
    /// epoch (known already, or read from Redis now, bounded by its command timeout, on an instance
    /// whose feeds have not run yet) is the id's.
    package static func fleetResume(_ asked: EventID, topics: [StreamHub.TopicKey], state: ServeState) async -> StreamHub.FleetResume? {
        guard let feeds = state.current.feeds else { return nil }
        let epoch: UInt64? = if let known = feeds.fleetEpoch { known } else { await feeds.loadFleetEpoch() }
        guard epoch == asked.epoch else { return nil }
        var missed: [StreamHub.TopicKey: [(UInt64, String)]] = [:]
        for topic in topics { missed[topic] = await fleetBacklog(for: topic, after: asked.sequence, state: state) }
        return StreamHub.FleetResume(after: asked.sequence, missed: missed)
    }

    /// The fleet's kept events of `topic` after `sequence`, as SSE events with their ids.
    static func fleetBacklog(for topic: StreamHub.TopicKey, after sequence: UInt64, state: ServeState) async -> [(UInt64, String)] {
        let generation = state.current
        guard let feeds = generation.feeds,
              let route = try? generation.service.route(asset: topic.asset, explicitProviders: topic.providers),
              let provider = route.providers.first, feeds.hasFeed(provider) else { return [] }
        let pair = QuoteRequest(asset: topic.asset, currency: topic.currency)
        let updates = await feeds.fleetBacklog(provider: provider, pair: pair, after: sequence) ?? []
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
            return "data: \(QuoteFormatter.json(quote, at: Date()))\n\n"
        case .failure(let error):
            let line = QuoteFormatter.failureLine(asset: topic.asset, currency: topic.currency, message: "\(error)", at: Date())
            return "event: error\ndata: \(line)\n\n"
        }
    }
}

/// The hub's events as `serve` makes them: a streaming provider's feed, else a fetch per tick,
/// from the generation served now.
package struct ServeStreamSource: StreamSource {
    let state: ServeState
    let metrics: ServeMetrics

    package init(state: ServeState, metrics: ServeMetrics) {
        self.state = state
        self.metrics = metrics
    }

    package func push(for topic: StreamHub.TopicKey) -> StreamHub.Push? { ServeRouter.feed(for: topic, state: state, metrics: metrics) }

    package func event(for topic: StreamHub.TopicKey) async -> String { await ServeRouter.event(for: topic, state: state) }
}
