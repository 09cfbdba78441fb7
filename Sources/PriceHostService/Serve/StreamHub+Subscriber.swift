import ConcurrencyHelpers
import FoundationEssentials

extension StreamHub {
    /// One SSE client's inbox: events are queued, and its writer told when the inbox was empty.
    ///
    /// A client that falls behind is never buffered without bound: past ``maxQueued``
    /// events it keeps only the latest event of each of its topics (its pairs), and
    /// ``laggingSince`` says since when; its writer ends it after ``maxLag``.
    final class Subscriber: Sendable {
        /// Tells the writer events are waiting: called once per batch, when the first of them comes.
        private let ready: @Sendable () -> Void
        /// A client with a delivery rule: its events are kept with their topics, for ``takeTagged()``.
        let filter: DeliveryFilter?
        private let inbox = Lock(Inbox())
        /// Events queued in full before the inbox keeps only the latest per topic.
        static let maxQueued = 256
        /// How long a client may stay behind before it is cut off with a final `event: error`.
        static let maxLag: Duration = .seconds(10)

        private struct Inbox {
            var events: [String] = []
            /// Each of `events`' topic, for a client with a rule only.
            var topics: [TopicKey] = []
            /// Past the bound: the latest event of each topic, with its number (to keep their order).
            var latest: [TopicKey: (sequence: UInt64, event: String)] = [:]
            /// The inbox went past its bound since the last take.
            var overflowed = false
            /// Since when every take found the inbox past its bound.
            var laggingSince: ContinuousClock.Instant?
            /// The writer was told of what waits and has not taken it yet.
            var told = false
        }

        /// - Parameters:
        ///   - ready: tells its writer that events wait; not called again until they are taken.
        ///   - filter: the client's delivery rule, if it has one.
        init(ready: @escaping @Sendable () -> Void, filter: DeliveryFilter? = nil) {
            self.ready = ready
            self.filter = filter
        }

        func deliver(_ event: String, sequence: UInt64, topic: TopicKey) {
            let tell = inbox.withLock { inbox in
                if !inbox.overflowed, inbox.events.count < Self.maxQueued {
                    inbox.events.append(event)
                    if filter != nil { inbox.topics.append(topic) }
                } else {
                    inbox.overflowed = true
                    if inbox.laggingSince == nil { inbox.laggingSince = .now }
                    inbox.latest[topic] = (sequence, event)
                }
                defer { inbox.told = true }
                return !inbox.told
            }
            if tell { ready() }
        }

        /// The queued events, oldest first: those queued in full, then, if the inbox went
        /// past its bound, the latest of each topic. A take that finds the inbox within its
        /// bound means the client caught up, and ends its lag.
        func take() -> [String] {
            inbox.withLock { inbox in
                var taken = inbox.events
                if inbox.overflowed { taken += inbox.latest.values.sorted { $0.sequence < $1.sequence }.map(\.event) }
                Self.emptied(&inbox)
                return taken
            }
        }

        /// ``take()``'s events with their topics (a client with a rule), as ``DeliveryFilter/select(_:)`` reads them.
        func takeTagged() -> [(topic: TopicKey, event: String)] {
            inbox.withLock { inbox in
                var taken = zip(inbox.topics, inbox.events).map { (topic: $0.0, event: $0.1) }
                if inbox.overflowed {
                    taken += inbox.latest.sorted { $0.value.sequence < $1.value.sequence }.map { (topic: $0.key, event: $0.value.event) }
                }
                Self.emptied(&inbox)
                return taken
            }
        }

        /// After a take: a take that finds the inbox within its bound means the client caught up, and ends its lag.
        private static func emptied(_ inbox: inout Inbox) {
            if !inbox.overflowed { inbox.laggingSince = nil }
            inbox.events = []
            inbox.topics = []
            inbox.latest = [:]
            inbox.overflowed = false
            inbox.told = false
        }

        /// Since when the client has been behind, if it is behind now: its inbox is past its
        /// bound, and was at every take since then.
        var behindSince: ContinuousClock.Instant? {
            inbox.withLock { $0.overflowed ? $0.laggingSince : nil }
        }
    }
}
