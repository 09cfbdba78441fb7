import FoundationEssentials
import ProviderABI

/// One pair's side of a ``DeliveryRule`` for one client (a stream client, a webhook, `watch --stream`):
/// the last price delivered to it and when, and whether it was told the pair is stale. Each client keeps its own.
package struct DeliveryPair: Sendable {
    /// What to do with a quote.
    package enum Decision: Sendable, Equatable {
        /// Deliver it: it is now the last delivered.
        case deliver
        /// Nothing: it moved too little, or the client was told already that the pair is stale.
        case skip
        /// Say the pair is stale (`ageMilliseconds` old): the first stale quote of an episode.
        case stale(ageMilliseconds: Int64)
    }

    /// The last price delivered, and when (since the client started, before any).
    package private(set) var lastDelivered: Decimal?
    package private(set) var lastDeliveredAt: ContinuousClock.Instant
    /// The client was told the pair is stale, and no live price came since.
    private var staleEpisode = false

    package init(since start: ContinuousClock.Instant) {
        lastDeliveredAt = start
    }

    /// The client resumes from `amount` (the event its `Last-Event-ID` names).
    package mutating func anchor(_ amount: Decimal) {
        lastDelivered = amount
    }

    /// A quote of `amount` at `timestamp`. Older than `maxAge` (strictly): the first of an episode is
    /// ``Decision/stale(ageMilliseconds:)``, the rest skipped. Otherwise delivered when it is the first, a
    /// `heartbeat`, the end of a stale episode, or moved at least `deviationBps` from the last delivered.
    package mutating func offer(_ amount: Decimal, at timestamp: Date, rule: DeliveryRule, heartbeat: Bool = false,
                                now: ContinuousClock.Instant, wallNow: Date) -> Decision {
        if let maxAge = rule.maxAge {
            // Each time in whole milliseconds first (a quote's timestamp has no finer ones): a difference of
            // binary seconds would make 30.001 s 30000.99… ms. The age every answer's `ageMs` gives.
            let age = Quote.ageMilliseconds(of: timestamp, at: wallNow)
            if age > Durations.milliseconds(of: maxAge) {
                defer { staleEpisode = true }
                return staleEpisode ? .skip : .stale(ageMilliseconds: age)
            }
        }
        if !heartbeat, !staleEpisode, let last = lastDelivered, let bps = rule.deviationBps,
           !DeliveryRule.moved(from: last, to: amount, bps: bps) {
            return .skip
        }
        staleEpisode = false
        lastDelivered = amount
        lastDeliveredAt = now
        return .deliver
    }

    /// Whether a heartbeat is due at `now`: `rule.heartbeat` has passed since the last delivery.
    package func heartbeatDue(_ rule: DeliveryRule, at now: ContinuousClock.Instant) -> Bool {
        rule.heartbeat.map { lastDeliveredAt + $0 <= now } ?? false
    }
}
