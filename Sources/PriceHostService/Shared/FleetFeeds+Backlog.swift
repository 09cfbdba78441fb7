import FoundationEssentials
import PriceHostCore
import ProviderABI

extension FleetFeeds {
    /// The events of `pair` from `provider` the fleet kept after `sequence`, for a `Last-Event-ID` resume,
    /// checked as live events are: each must be for that pair and provider, with a positive decimal
    /// amount and times in range, and numbered past the one delivered before it (and not past the
    /// fleet's counter). Anything else is skipped, counted in `pricehost_shared_bad_values_total`,
    /// and logged once per key. Entries at or before `sequence`, or older than the retention, are
    /// simply not asked for.
    package func fleetBacklog(provider: String, pair: QuoteRequest, after sequence: UInt64) async -> [StreamUpdate]? {
        let key = FleetFeedCodec.eventsKey(provider: provider, pair: pair)
        guard let replies = try? await client.perform([.command(["LRANGE", key, "0", "-1"]), .command(["GET", FleetFeedCodec.counterKey])]),
              replies.count == 2, case .array(let entries?) = replies[0] else { return [] }
        // The relay numbers and keeps an event in one script, so nothing kept is past the counter read after it.
        let counter = replies[1].text.flatMap { UInt64($0) } ?? .max
        let now = nowMilliseconds()
        let oldest = now - Int64(FleetFeedCodec.retention.components.seconds * 1000)
        let epoch = fleetEpoch
        var last = sequence
        var updates: [StreamUpdate] = []
        var bad = 0
        for entry in entries {
            guard case .bulk(let bytes?) = entry, let event = FleetFeedCodec.decode(bytes, provider: provider, pair: pair, epoch: epoch),
                  event.sequence <= counter, event.published <= now + Int64(FleetFeedCodec.retention.components.seconds * 1000) else {
                bad += 1
                continue
            }
            guard event.published >= oldest else { continue }
            guard event.sequence > last else {
                // Before the first one delivered, an entry is merely older than the resume; after it, out of order.
                if last > sequence { bad += 1 }
                continue
            }
            last = event.sequence
            updates.append(event.update)
        }
        if bad > 0 {
            metrics.badValue(provider: provider, count: bad)
            if badKeys.shouldReport(key) {
                diagnostics.warning("shared: redis key \(key) holds \(bad) entr\(bad == 1 ? "y" : "ies") that \(bad == 1 ? "is" : "are") not "
                    + "\(provider)'s events of \(pair.pair) in order; skipped in the replay")
            }
        }
        return updates
    }

    /// On taking a feed over: writes the events the fleet kept of each pair to the store the fleet shares.
    /// What the last holder relayed and died before writing is among them; what it wrote is kept once.
    func keepBacklog(_ provider: String, pairs: [QuoteRequest], keep: @Sendable (StreamUpdate) -> Void) async {
        var kept = 0
        for pair in pairs {
            for update in await fleetBacklog(provider: provider, pair: pair, after: 0) ?? [] {
                keep(update)
                kept += 1
            }
        }
        if kept > 0 { diagnostics.log(.info, "shared: wrote \(kept) of \(provider)'s kept events to the store on taking the feed over") }
    }
}
