import ConcurrencyHelpers
import FoundationEssentials
import PriceHostCore

/// The SSE topics: one per asset, currency, providers and interval. A topic has
/// one ticker that fetches once per tick and hands the event to every subscriber,
/// so many clients of one asset share one upstream fetch. The last subscriber
/// leaving cancels the ticker and frees the topic.
///
/// Every event carries an `id:` (``EventID``), numbered in the order events are
/// delivered, across topics. Each topic keeps its events of the last
/// ``StreamHistory/retention`` (also for that long after its last client left),
/// so a client that reconnects with `Last-Event-ID` gets what it missed, then live ones.
package final class StreamHub: Sendable {
    /// What a topic fetches.
    package struct TopicKey: Hashable, Sendable {
        package var asset: String
        package var currency: String
        package var providers: [String]?
        package var intervalMilliseconds: Int
    }

    private struct Topic {
        var id: Int
        var subscribers: [ObjectIdentifier: Subscriber] = [:]
        var history = StreamHistory()
        var ticker: Task<Void, Never>?
        /// A pushed topic's subscription to its feed.
        var feed: FeedSubscription?
        /// The last fleet event sent: one the topic has is not sent again.
        var lastFleetEvent: EventID?
        /// Clients resumed from the fleet's kept events past what the topic has sent: the last of those each got. The
        /// topic's own delivery of them, when it comes, is not sent to that client again.
        var resumedThrough: [ObjectIdentifier: EventID] = [:]
    }

    /// Subscribes a topic to a feed: each event body the feed makes goes to `deliver`, with the
    /// fleet's id for it when the fleet numbered it (the same on every instance).
    package typealias Push = @Sendable (_ deliver: @escaping @Sendable (String, EventID?) -> Void) -> FeedSubscription?

    /// A client resuming with an id the fleet gave (its epoch is the fleet's): the sequence it had,
    /// and the fleet's events of each of its topics after it, as `(sequence, event)`, oldest first,
    /// read from Redis before the client subscribes (``ServeRouter/fleetResume(_:topics:state:)``).
    package struct FleetResume: Sendable {
        var after: UInt64
        var missed: [TopicKey: [(UInt64, String)]]
    }

    private struct State {
        var topics: [TopicKey: Topic] = [:]
        /// The histories of topics whose last client left, kept for a reconnect.
        var retired: [TopicKey: StreamHistory] = [:]
        var nextID = 0
        /// The last event number handed out (``EventID/sequence``).
        var sequence: UInt64 = 0
        var stopped = false
    }

    /// Makes one tick's SSE event (`data: …` or `event: error`) for a topic.
    private let makeEvent: @Sendable (TopicKey) async -> String
    private let state = Lock(State())
    /// This hub's part of every event id: an id another process gave is never taken for one of ours.
    let epoch: UInt64

    /// Where the tickers run: by default Swift's global executor.
    private let tickerExecutor: (any TaskExecutor)?
    /// The feed that pushes a topic's events, when one does; the others tick.
    private let push: @Sendable (TopicKey) -> Push?
    /// What the topics' histories are kept on, and their tickers wait on.
    let clock: any PriceClock

    /// - Parameters:
    ///   - tickerExecutor: where the topics' tickers run; tests give one of their own.
    ///   - source: where each topic's events come from: a feed's pushes, or one event per tick.
    ///   - clock: what retention and the tickers' intervals are measured on, and the epoch read from; tests give a ``TestClock``.
    package init(tickerExecutor: (any TaskExecutor)? = nil, source: any StreamSource, clock: any PriceClock = SystemClock()) {
        self.makeEvent = { topic in await source.event(for: topic) }
        self.tickerExecutor = tickerExecutor
        self.push = { topic in source.push(for: topic) }
        self.clock = clock
        epoch = UInt64(max(0, clock.wallNow.timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// How many topics have a ticker: 0 once every client has left.
    var topicCount: Int { state.withLock { $0.topics.count } }

    /// Adds `subscriber` to `key`'s topic, starting its ticker if it is new. It gets,
    /// at once, the events after `lastEventID` that the topic still holds, or, without
    /// one (or for an id this hub never gave), the topic's latest event; with `fleet`, the
    /// fleet's events it missed, then the topic's after them. False once the hub stopped.
    func subscribe(_ subscriber: Subscriber, to key: TopicKey, after lastEventID: String? = nil, fleet: FleetResume? = nil) -> Bool {
        let asked = lastEventID.flatMap(EventID.init(parsing:))
        let resume = asked.flatMap { $0.epoch == epoch ? $0.sequence : nil }
        // An id the fleet gave: its events from Redis (this instance may not have had the topic), then ours after them.
        let fleetResume = fleet?.after
        let fleetMissed = fleet?.missed[key] ?? []
        // Asked before the lock: the feed's own lock is never taken inside this one.
        let pushed = state.withLock { $0.topics[key] == nil } ? push(key) : nil
        var started: (push: Push, id: Int)?
        let subscribed = state.withLock { state in
            guard !state.stopped else { return false }
            let now = clock.now
            var topic: Topic
            if let existing = state.topics[key] {
                topic = existing
            } else {
                state.nextID += 1
                topic = Topic(id: state.nextID)
                topic.history = state.retired.removeValue(forKey: key) ?? StreamHistory()
                let id = state.nextID
                if let pushed {
                    started = (pushed, id)
                } else {
                    topic.ticker = Task(executorPreference: tickerExecutor) { [self] in await tick(key, id: id) }
                }
            }
            topic.subscribers[ObjectIdentifier(subscriber)] = subscriber
            topic.history.expire(before: now)
            // Under the lock, so nothing the ticker delivers comes before these.
            let backlog: [(sequence: UInt64, event: String)]
            var fromFleet: [(sequence: UInt64, event: String)] = []
            if let fleetResume {
                fromFleet = fleetMissed.filter { $0.0 > fleetResume }.map { (sequence: $0.0, event: $0.1) }
                backlog = fromFleet + topic.history.entries(after: fromFleet.last?.sequence ?? fleetResume)
            } else {
                backlog = resume.map { topic.history.entries(after: $0) } ?? topic.history.newest.map { [$0] } ?? []
            }
            // A client with a rule resumes from the price of the event it names, if the topic still has it.
            if let filter = subscriber.filter, fleetResume == nil, let resume, let anchor = topic.history.event(numbered: resume) {
                filter.anchor(anchor, topic: key)
            }
            for entry in backlog { subscriber.deliver(entry.event, sequence: entry.sequence, topic: key) }
            // Redis may hold events this instance has not relayed yet: read for the resume, then relayed to the topic.
            // (One the topic relayed already is never relayed again, and the entry goes with the next fleet event.)
            if let asked, let last = fromFleet.last {
                topic.resumedThrough[ObjectIdentifier(subscriber)] = EventID(epoch: asked.epoch, sequence: last.sequence)
            }
            state.topics[key] = topic
            return true
        }
        if let started {
            // Outside the lock: the feed may deliver at once (its last update), which takes it.
            let feed = started.push { [self] body, fleetID in _ = publish(body, on: key, id: started.id, fleetID: fleetID, pushed: true) }
            let kept = state.withLock { state in
                guard state.topics[key]?.id == started.id else { return false }
                state.topics[key]?.feed = feed
                return true
            }
            if !kept { feed?.cancel() }
        }
        return subscribed
    }

    /// Removes `subscriber`; the last one out ends the topic's ticker or feed subscription.
    func unsubscribe(_ subscriber: Subscriber, from key: TopicKey) {
        let topic: Topic? = state.withLock { state in
            guard var topic = state.topics[key] else { return nil }
            topic.subscribers[ObjectIdentifier(subscriber)] = nil
            topic.resumedThrough[ObjectIdentifier(subscriber)] = nil
            guard topic.subscribers.isEmpty else {
                state.topics[key] = topic
                return nil
            }
            state.topics[key] = nil
            let now = clock.now
            state.retired = state.retired.filter { !$0.value.isExpired(at: now) }
            if state.retired.count < Self.maximumRetiredTopics { state.retired[key] = topic.history }
            return topic
        }
        topic?.ticker?.cancel()
        topic?.feed?.cancel()
    }

    /// Ends every ticker and feed subscription; subscribing fails from now on.
    package func stop() {
        let topics = state.withLock { state in
            state.stopped = true
            defer { state.topics = [:] }
            return Array(state.topics.values)
        }
        for topic in topics {
            topic.ticker?.cancel()
            topic.feed?.cancel()
        }
    }

    /// Numbers one event of topic `id`, keeps it in the topic's history and hands it to its
    /// clients. False when that topic has ended.
    /// An event the fleet numbered keeps the fleet's id, the same on every instance, and is
    /// kept in the topic's history under the fleet's sequence.
    /// A pushed event that repeats the topic's newest (a feed hands a new listener its last update,
    /// which a topic made again from its kept history already has) is not sent twice.
    private func publish(_ body: String, on key: TopicKey, id: Int, fleetID: EventID? = nil, pushed: Bool = false) -> Bool {
        state.withLock { state in
            // The topic is found once (its key hashes four strings) and changed in place through its index: the
            // history is appended to without a copy of the topic (which would copy all 600 events every time).
            guard let topic = state.topics.index(forKey: key), state.topics.values[topic].id == id else { return false }
            let newest = state.topics.values[topic].history.newest
            if let fleetID {
                if let lastFleet = state.topics.values[topic].lastFleetEvent, lastFleet.epoch == fleetID.epoch,
                   lastFleet.sequence >= fleetID.sequence { return true }
                if newest?.event.hasPrefix("id: \(fleetID.text)\n") == true { return true }
                state.topics.values[topic].lastFleetEvent = fleetID
            } else if pushed, let newest, StreamHistory.body(of: newest.event, is: body) {
                return true
            }
            state.sequence += 1
            let shown = fleetID ?? EventID(epoch: epoch, sequence: state.sequence)
            let event = "id: \(shown.text)\n" + body
            state.topics.values[topic].history.append(event, sequence: fleetID?.sequence ?? state.sequence, at: clock.now)
            // Under the lock: every client gets events in the order of their ids; a client resumed from the fleet's
            // kept events past this one had it then.
            let resumed = state.topics.values[topic].resumedThrough
            for (id, subscriber) in state.topics.values[topic].subscribers {
                if let fleetID, let through = resumed[id], through.epoch == fleetID.epoch, fleetID.sequence <= through.sequence { continue }
                subscriber.deliver(event, sequence: state.sequence, topic: key)
            }
            if let fleetID, !resumed.isEmpty {
                state.topics.values[topic].resumedThrough = resumed.filter { $0.value.epoch == fleetID.epoch && $0.value.sequence > fleetID.sequence }
            }
            return true
        }
    }

    private func tick(_ key: TopicKey, id: Int) async {
        while !Task.isCancelled {
            let body = await makeEvent(key)
            guard !Task.isCancelled, publish(body, on: key, id: id) else { return }
            try? await clock.sleep(for: .milliseconds(key.intervalMilliseconds))
        }
    }

    /// Topics whose history is kept after their last client left, at most.
    static let maximumRetiredTopics = 1024
}
