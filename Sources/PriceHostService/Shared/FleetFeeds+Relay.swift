import FoundationEssentials
import PriceHostCore
import ProviderABI

extension FleetFeeds {
    /// The holder's side: numbers, keeps and publishes one update through Redis. When Redis refuses
    /// (a key of the wrong type), the keys are repaired and the update relayed again; when they cannot
    /// be, this instance's clients get it directly and the instance streams alone (FleetFeeds+Repair).
    func relay(_ update: StreamUpdate, provider: String) async {
        let pair = QuoteRequest(asset: update.quote.asset, currency: update.quote.currency)
        let keys = [FleetFeedCodec.leaseKey(provider: provider), FleetFeedCodec.counterKey, FleetFeedCodec.eventsKey(provider: provider, pair: pair)]
        for attempt in 1...2 {
            let now = Int64((Date().timeIntervalSince1970 * 1000).rounded())
            let reply = try? await client.perform(.script(.relay, keys: keys,
                                                          arguments: [token, FleetFeedCodec.payload(update, publishedMilliseconds: now),
                                                                      FleetFeedCodec.channel(database: database, provider: provider),
                                                                      String(FleetFeedCodec.keptEvents), Self.milliseconds(FleetFeedCodec.retention)]))
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

    /// Every instance's side: an event on a provider's channel, delivered to that pair's listeners.
    func arrived(channel: String, payload: [UInt8]) {
        let prefix = FleetFeedCodec.channel(database: database, provider: "")
        guard channel.hasPrefix(prefix) else { return }
        let provider = String(channel.dropFirst(prefix.count))
        guard let event = FleetFeedCodec.decode(payload, provider: provider, epoch: fleetEpoch) else { return }
        let lag = Double(Int64((Date().timeIntervalSince1970 * 1000).rounded()) - event.published) / 1000
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
            feed.last[pair] = update
            state.feeds[provider] = feed
            for handler in feed.listeners[pair]?.values ?? [:].values { handler(update) }
        }
    }
}
