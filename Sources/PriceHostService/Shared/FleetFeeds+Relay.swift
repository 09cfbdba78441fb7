import FoundationEssentials
import PriceHostCore
import ProviderABI

extension FleetFeeds {
    /// The holder's side: numbers, keeps and publishes one update through Redis.
    func relay(_ update: StreamUpdate, provider: String) async {
        let now = Int64((Date().timeIntervalSince1970 * 1000).rounded())
        let pair = QuoteRequest(asset: update.quote.asset, currency: update.quote.currency)
        _ = try? await client.perform(.script(.relay, keys: [FleetFeedCodec.leaseKey(provider: provider), FleetFeedCodec.counterKey,
                                                             FleetFeedCodec.eventsKey(provider: provider, pair: pair)],
                                              arguments: [token, FleetFeedCodec.payload(update, publishedMilliseconds: now),
                                                          FleetFeedCodec.channel(database: database, provider: provider),
                                                          String(FleetFeedCodec.keptEvents), Self.milliseconds(FleetFeedCodec.retention)]))
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

    /// The fleet's epoch, from the replies to `SET NX` and `GET` of its key: set by the first instance,
    /// read by every other, and made anew if Redis lost it (a restart without persistence restarts the
    /// counter too, so a new epoch keeps ids from repeating). A new epoch forgets what was delivered.
    func learnEpoch(from reply: RESPValue) {
        guard let text = reply.text, let value = UInt64(text) else { return }
        let changed = epoch.withLock { epoch in
            defer { epoch = value }
            return epoch != nil && epoch != value
        }
        if changed {
            state.withLock { state in
                for provider in state.feeds.keys { state.feeds[provider]?.delivered = [:] }
            }
        }
    }
}
