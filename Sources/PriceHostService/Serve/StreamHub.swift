import ConcurrencyHelpers
import Glibc

/// The SSE topics: one per asset, currency, providers and interval. A topic has
/// one ticker that fetches once per tick and hands the event to every subscriber,
/// so many clients of one asset share one upstream fetch. The last subscriber
/// leaving cancels the ticker and frees the topic.
package final class StreamHub: Sendable {
    /// What a topic fetches.
    package struct TopicKey: Hashable, Sendable {
        package var asset: String
        package var currency: String
        package var providers: [String]?
        package var intervalMilliseconds: Int
    }

    /// One SSE client's inbox: events are queued and a pipe wakes its thread.
    final class Subscriber: Sendable {
        /// Readable when events are waiting.
        let wakeDescriptor: Int32
        private let signalDescriptor: Int32
        private let inbox = Lock<(events: [String], overflowed: Bool)>(([], false))
        /// A client this far behind is cut off rather than buffered without bound.
        static let maxQueued = 256

        /// `nil` when no pipe can be made (out of descriptors).
        init?() {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { return nil }
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            }
            wakeDescriptor = ends[0]
            signalDescriptor = ends[1]
        }

        deinit {
            close(wakeDescriptor)
            close(signalDescriptor)
        }

        func deliver(_ event: String) {
            inbox.withLock { inbox in
                if inbox.events.count >= Self.maxQueued { inbox.overflowed = true } else { inbox.events.append(event) }
            }
            // A full pipe already says "events are waiting".
            var one: UInt8 = 1
            _ = write(signalDescriptor, &one, 1)
        }

        /// The queued events, and whether some were dropped.
        func take() -> (events: [String], overflowed: Bool) {
            var drained = [UInt8](repeating: 0, count: 256)
            while read(wakeDescriptor, &drained, drained.count) > 0 {}
            return inbox.withLock { inbox in
                defer { inbox.events = [] }
                return inbox
            }
        }
    }

    private struct Topic {
        var id: Int
        var subscribers: [ObjectIdentifier: Subscriber] = [:]
        var last: String?
        var ticker: Task<Void, Never>?
    }

    private struct State {
        var topics: [TopicKey: Topic] = [:]
        var nextID = 0
        var stopped = false
    }

    /// Makes one tick's SSE event (`data: …` or `event: error`) for a topic.
    private let makeEvent: @Sendable (TopicKey) async -> String
    private let state = Lock(State())

    package init(makeEvent: @escaping @Sendable (TopicKey) async -> String) {
        self.makeEvent = makeEvent
    }

    /// How many topics have a ticker: 0 once every client has left.
    var topicCount: Int { state.withLock { $0.topics.count } }

    /// Adds `subscriber` to `key`'s topic, starting its ticker if it is new; a topic
    /// already ticking hands over its latest event at once. False once the hub stopped.
    func subscribe(_ subscriber: Subscriber, to key: TopicKey) -> Bool {
        let latest: String?? = state.withLock { state in
            guard !state.stopped else { return nil }
            if var topic = state.topics[key] {
                topic.subscribers[ObjectIdentifier(subscriber)] = subscriber
                state.topics[key] = topic
                return .some(topic.last)
            }
            state.nextID += 1
            var topic = Topic(id: state.nextID)
            topic.subscribers[ObjectIdentifier(subscriber)] = subscriber
            let id = state.nextID
            topic.ticker = Task { [self] in await tick(key, id: id) }
            state.topics[key] = topic
            return .some(nil)
        }
        guard let latest else { return false }
        if let latest { subscriber.deliver(latest) }
        return true
    }

    /// Removes `subscriber`; the last one out ends the topic's ticker.
    func unsubscribe(_ subscriber: Subscriber, from key: TopicKey) {
        let ticker: Task<Void, Never>? = state.withLock { state in
            guard var topic = state.topics[key] else { return nil }
            topic.subscribers[ObjectIdentifier(subscriber)] = nil
            guard topic.subscribers.isEmpty else {
                state.topics[key] = topic
                return nil
            }
            state.topics[key] = nil
            return topic.ticker
        }
        ticker?.cancel()
    }

    /// Ends every ticker; subscribing fails from now on.
    package func stop() {
        let tickers = state.withLock { state in
            state.stopped = true
            defer { state.topics = [:] }
            return state.topics.values.compactMap(\.ticker)
        }
        for ticker in tickers { ticker.cancel() }
    }

    private func tick(_ key: TopicKey, id: Int) async {
        while !Task.isCancelled {
            let event = await makeEvent(key)
            let subscribers: [Subscriber]? = state.withLock { state in
                guard var topic = state.topics[key], topic.id == id else { return nil }
                topic.last = event
                state.topics[key] = topic
                return Array(topic.subscribers.values)
            }
            guard let subscribers, !Task.isCancelled else { return }
            for subscriber in subscribers { subscriber.deliver(event) }
            try? await Task.sleep(for: .milliseconds(key.intervalMilliseconds))
        }
    }
}
