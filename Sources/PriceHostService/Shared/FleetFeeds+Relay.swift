import FoundationEssentials
import PriceHostCore
import ProviderABI

extension FleetFeeds {
    /// The holder's side for what queued while the last round trip was out: every update in one
    /// pipeline, in order, so a burst costs one round trip rather than one each. An update Redis
    /// refuses, and every one after it, goes again one by one, through the repair (``relay(_:provider:)``).
    func relay(batch updates: [StreamUpdate], provider: String) async {
        guard updates.count > 1 else {
            if let update = updates.first { await relay(update, provider: provider) }
            return
        }
        let now = nowMilliseconds()
        // Thrown: Redis is down, and the instance streams alone (FleetFeeds+Upstream).
        guard let replies = try? await client.perform(updates.map { relayCall($0, provider: provider, publishedMilliseconds: now) }) else { return }
        guard let refused = replies.firstIndex(where: { if case .error = $0 { true } else { false } }) else { return }
        for update in updates[refused...] { await relay(update, provider: provider) }
    }

    /// The holder's side: numbers, keeps and publishes one update through Redis. When Redis refuses
    /// (a key of the wrong type), the keys are repaired and the update relayed again; when they cannot
    /// be, this instance's clients get it directly and the instance streams alone (FleetFeeds+Repair).
    func relay(_ update: StreamUpdate, provider: String) async {
        let pair = QuoteRequest(asset: update.quote.asset, currency: update.quote.currency)
        let keys = relayKeys(update, provider: provider)
        for attempt in 1...2 {
            let reply = try? await client.perform(relayCall(update, provider: provider, publishedMilliseconds: nowMilliseconds()))
            guard case .error(let message)? = reply else { return }
            let what = "relaying \(provider)'s \(pair.pair)"
            let repaired = await repair(provider, refused: what, message: message, keys: [(keys[2], .list), (keys[0], .string), (keys[1], .counter)])
            if attempt == 2 {
                if !repaired { streamAlone(provider, refused: what, message: message, key: keys[2]) }
                break
            }
        }
        // Not relayed: this instance's own clients get it at least.
        deliver(update, provider: provider)
    }

    /// The relay script's keys for `update`: the lease, the counter and the pair's events.
    private func relayKeys(_ update: StreamUpdate, provider: String) -> [String] {
        let pair = QuoteRequest(asset: update.quote.asset, currency: update.quote.currency)
        return [FleetFeedCodec.leaseKey(provider: provider), FleetFeedCodec.counterKey, FleetFeedCodec.eventsKey(provider: provider, pair: pair)]
    }

    /// The relay script's call for `update`.
    private func relayCall(_ update: StreamUpdate, provider: String, publishedMilliseconds: Int64) -> RedisCall {
        .script(.relay, keys: relayKeys(update, provider: provider),
                       arguments: [token, FleetFeedCodec.payload(update, publishedMilliseconds: publishedMilliseconds),
                                   FleetFeedCodec.channel(database: database, provider: provider),
                                   String(FleetFeedCodec.keptEvents), Self.milliseconds(FleetFeedCodec.retention)])
    }

    /// Every instance's side: an event on a provider's channel, delivered to that pair's listeners.
    func arrived(channel: String, payload: [UInt8]) {
        let prefix = FleetFeedCodec.channel(database: database, provider: "")
        guard channel.hasPrefix(prefix) else { return }
        let provider = String(channel.dropFirst(prefix.count))
        guard let event = FleetFeedCodec.decode(payload, provider: provider, epoch: fleetEpoch) else { return }
        let lag = Double(nowMilliseconds() - event.published) / 1000
        state.withLock { $0.feeds[provider]?.counters.recordRelay(lagSeconds: lag) }
        deliver(event.update, provider: provider, sequence: event.sequence)
    }

    /// Hands an update to its pair's listeners, in order; with a fleet sequence, never one already delivered.
    func deliver(_ update: StreamUpdate, provider: String, sequence: UInt64? = nil) {
        let pair = QuoteRequest(asset: update.quote.asset, currency: update.quote.currency)
        state.withLock { state in
            guard var feed = state.feeds[provider] else { return }
            if let sequence {
                if let last = feed.delivered[pair], sequence <= last { return }
                feed.delivered[pair] = sequence
            }
            feed.listeners.deliver(update, to: pair)
            state.feeds[provider] = feed
        }
    }
}
