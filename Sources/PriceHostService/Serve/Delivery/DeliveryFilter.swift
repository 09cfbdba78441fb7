import ConcurrencyHelpers
import FoundationEssentials
import PriceHostCore
import ProviderABI

/// One client's ``DeliveryRule`` at work: of the events its topics share, it picks those the
/// rule selects, keeping per pair (topic) the last price delivered to this client, and adds
/// the heartbeats and `event: stale` lines the rule asks for.
///
/// Only clients with a rule have one: the hub's shared path stays as it was for the others.
/// Events are read as ``QuoteFormatter`` writes them (`"amount":"…"`, `"timestamp":"…"`); an
/// `event: error` and anything that is not a quote pass unchanged.
///
/// A heartbeat is the pair's latest event again, with its own id (no new id is made for one
/// client): a client that resumes with that id goes on from the same place. Heartbeats are
/// timed on the injected ``PriceClock``; when one is due the filter calls `wake`, and the
/// client's next take (``select(_:)``) includes it.
package final class DeliveryFilter: Sendable {
    private struct Pair {
        /// The last price delivered to this client, when, and whether it was told the pair is stale.
        var delivery: DeliveryPair
        /// The latest quote event seen (delivered or not), for a heartbeat.
        var latest: (event: String, quote: QuoteFields)?
        var heartbeatDue = false

        init(since start: ContinuousClock.Instant) {
            delivery = DeliveryPair(since: start)
        }
    }

    /// The members of a quote event the rule reads.
    struct QuoteFields {
        var amount: Decimal
        var timestamp: Date
    }

    package let rule: DeliveryRule
    private let clock: any PriceClock
    private let wake: @Sendable () -> Void
    private let pairs = Lock<[StreamHub.TopicKey: Pair]>([:])
    private let heartbeats: HeartbeatTimers<StreamHub.TopicKey>?

    /// - Parameters:
    ///   - wake: tells the client's writer a heartbeat is due (called outside the filter's lock).
    package init(rule: DeliveryRule, clock: any PriceClock, wake: @escaping @Sendable () -> Void) {
        self.rule = rule
        self.clock = clock
        self.wake = wake
        heartbeats = rule.heartbeat.map { HeartbeatTimers(clock: clock, heartbeat: $0) }
    }

    /// Starts following `topic`: its heartbeat is timed from now.
    func start(_ topic: StreamHub.TopicKey) {
        let now = clock.now
        pairs.withLock { pairs in
            if pairs[topic] == nil { pairs[topic] = Pair(since: now) }
        }
        armHeartbeat(topic, at: now)
    }

    /// The event the client resumes from (its `Last-Event-ID`'s): its price is the last one delivered.
    func anchor(_ event: String, topic: StreamHub.TopicKey) {
        guard let quote = Self.quoteFields(of: event) else { return }
        pairs.withLock { pairs in
            pairs[topic, default: Pair(since: clock.now)].delivery.anchor(quote.amount)
            pairs[topic]?.latest = (event, quote)
        }
    }

    /// Of `events` (taken from the inbox, oldest first, each with its topic), those the rule
    /// delivers, then the heartbeats due.
    package func select(_ events: [(topic: StreamHub.TopicKey, event: String)]) -> [String] {
        let now = clock.now, wallNow = clock.wallNow
        return pairs.withLock { pairs in
            var out: [String] = []
            for (topic, event) in events {
                guard let quote = Self.quoteFields(of: event) else {
                    out.append(event)
                    continue
                }
                var pair = pairs[topic] ?? Pair(since: now)
                pair.latest = (event, quote)
                offer(event, quote, topic: topic, to: &pair, into: &out, now: now, wallNow: wallNow)
                pairs[topic] = pair
            }
            for (topic, pair) in pairs where pair.heartbeatDue {
                var pair = pair
                pair.heartbeatDue = false
                if let latest = pair.latest, pair.delivery.heartbeatDue(rule, at: now) {
                    offer(latest.event, latest.quote, heartbeat: true, topic: topic, to: &pair, into: &out, now: now, wallNow: wallNow)
                }
                pairs[topic] = pair
            }
            return out
        }
    }

    /// What the pair's rule makes of `event`: the event, an `event: stale`, or nothing.
    private func offer(_ event: String, _ quote: QuoteFields, heartbeat: Bool = false, topic: StreamHub.TopicKey, to pair: inout Pair,
                       into out: inout [String], now: ContinuousClock.Instant, wallNow: Date) {
        switch pair.delivery.offer(quote.amount, at: quote.timestamp, rule: rule, heartbeat: heartbeat, now: now, wallNow: wallNow) {
        case .deliver: out.append(event)
        case .skip: break
        case .stale(let age): out.append(Self.staleEvent(topic, ageMilliseconds: age, maxAge: rule.maxAge ?? .zero))
        }
    }

    /// `event: stale`, without an id (the client's `Last-Event-ID` stays its last price):
    /// the pair, the quote's age and the client's limit, in milliseconds.
    static func staleEvent(_ topic: StreamHub.TopicKey, ageMilliseconds: Int64, maxAge: Duration) -> String {
        let data = JSONValue.object(JSONObject([
            ("asset", .string(topic.asset)), ("currency", .string(topic.currency)),
            ("ageMs", .number(String(ageMilliseconds))), ("maxAgeMs", .number(String(Durations.milliseconds(of: maxAge)))),
        ])).serialized
        return "event: stale\ndata: \(data)\n\n"
    }

    /// Times `topic`'s next heartbeat: at its last delivery plus the heartbeat. When the timer
    /// finds a delivery came since, it waits again from that one.
    private func armHeartbeat(_ topic: StreamHub.TopicKey, at from: ContinuousClock.Instant) {
        heartbeats?.arm(topic, from: from) { [weak self] now in self?.heartbeatTimerFired(topic, at: now) ?? now }
    }

    /// Marks `topic`'s heartbeat due if nothing was delivered since, and wakes the writer; returns when the next is timed from.
    private func heartbeatTimerFired(_ topic: StreamHub.TopicKey, at now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        let (due, last) = pairs.withLock { pairs -> (Bool, ContinuousClock.Instant) in
            guard var pair = pairs[topic] else { return (false, now) }
            let due = pair.delivery.heartbeatDue(rule, at: now)
            if due { pair.heartbeatDue = true }
            pairs[topic] = pair
            return (due, pair.delivery.lastDeliveredAt)
        }
        if due { wake() }
        // Due: the next is timed from now (a heartbeat with no price yet, or a stale one, delivers nothing).
        return due ? now : last
    }

    /// Cancels every heartbeat: the client left.
    func stop() {
        heartbeats?.stop()
    }

    /// The amount and timestamp of a quote event (`data: {"asset":…,"amount":"…",…,"timestamp":"…"…}`);
    /// `nil` for an `event:` line (error, stale) or anything else.
    static func quoteFields(of event: String) -> QuoteFields? {
        guard !event.contains("\nevent: "), !event.hasPrefix("event: "),
              let amountText = member("amount", in: event), let amount = DecimalAmount.parse(amountText),
              let timestampText = member("timestamp", in: event), let timestamp = ISO8601Timestamp.parse(timestampText) else { return nil }
        return QuoteFields(amount: amount, timestamp: timestamp)
    }

    /// The string value of the first `"name":"…"` in `text` (the formatter's members hold no quotes).
    private static func member(_ name: String, in text: String) -> String? {
        guard let start = text.firstRange(of: "\"\(name)\":\"") else { return nil }
        let rest = text[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }
}
