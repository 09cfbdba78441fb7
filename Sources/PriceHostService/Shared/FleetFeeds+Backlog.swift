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
        await keptEvents(provider: provider, pair: pair, after: sequence).map(\.update)
    }

    /// ``fleetBacklog(provider:pair:after:)``'s events, each with when its holder published it (Unix ms).
    func keptEvents(provider: String, pair: QuoteRequest, after sequence: UInt64) async -> [(update: StreamUpdate, published: Int64)] {
        let key = FleetFeedCodec.eventsKey(provider: provider, pair: pair)
        guard let replies = try? await client.perform([.command(["LRANGE", key, "0", "-1"]), .command(["GET", FleetFeedCodec.counterKey])]),
              replies.count == 2, case .array(let entries?) = replies[0] else { return [] }
        // The relay numbers and keeps an event in one script, so nothing kept is past the counter read after it.
        let counter = replies[1].text.flatMap { UInt64($0) } ?? .max
        let now = nowMilliseconds()
        let oldest = now - Int64(FleetFeedCodec.retention.components.seconds * 1000)
        let epoch = fleetEpoch
        var last = sequence
        var updates: [(update: StreamUpdate, published: Int64)] = []
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
            updates.append((event.update, event.published))
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

    /// On taking a feed over: writes the events the fleet kept of each pair to the store the fleet shares (when there
    /// is one: `keep`). What the last holder relayed and died before writing is among them; what it wrote is kept once.
    /// Also counts the gap the take-over leaves: from the newest event the fleet kept (of the last 60 s) to now. It
    /// holds the time no instance held the feed, and the pairs' own quiet before it; an outage longer than the
    /// retention leaves no kept event, and counts nothing. What the venue sent in that time reached no instance; no
    /// venue numbers its prices so that they could be counted one by one (Coinbase's sequence counts its order book,
    /// and skips between tickers by design; Gemini's restarts with each connection), so the time is what is counted
    /// (`pricehost_stream_fleet_unheld_seconds_total`), with one line.
    func takeOver(_ provider: String, pairs: [QuoteRequest], keep: (@Sendable (StreamUpdate) -> Void)?) async {
        var kept = 0
        var newest: Int64?
        for pair in pairs {
            for event in await keptEvents(provider: provider, pair: pair, after: 0) {
                keep?(event.update)
                kept += 1
                newest = max(newest ?? event.published, event.published)
            }
        }
        if keep != nil, kept > 0 { diagnostics.log(.info, "shared: wrote \(kept) of \(provider)'s kept events to the store on taking the feed over") }
        guard let newest else { return }
        let gap = Duration.milliseconds(max(0, nowMilliseconds() - newest))
        state.withLock { $0.feeds[provider]?.counters.unheld += gap }
        diagnostics.warning("shared: \(provider)'s feed: \(Durations.seconds(gap)) s from the fleet's newest event to this instance "
            + "taking the feed over; what the venue sent meanwhile reached no instance")
    }
}
