import PriceHostCore

/// An accepted `GET /v1/stream`: the topics to follow, as the event source the transport's
/// stream writer subscribes to (``ServeEventSource``) once the connection is handed over.
package struct StreamPlan: ServeEventSource {
    let topics: [StreamHub.TopicKey]
    /// The client's `Last-Event-ID`: it gets what it missed first.
    var lastEventID: String?
    /// For an id the fleet gave: the fleet's events after it, read (from Redis) before the stream starts.
    var fleet: StreamHub.FleetResume?
    /// The client's `deviationBps`, `heartbeatSeconds` and `maxAgeSeconds`; empty for most clients.
    var rule = DeliveryRule()
    package let hub: StreamHub
    package let metrics: ServeMetrics

    /// Subscribes to every topic: the client's inbox gets each topic's events from now on (and
    /// first those it missed). `nil` when the hub has stopped.
    package func subscribe(ready: @escaping @Sendable () -> Void) -> (any ServeEventSubscription)? {
        // Only a client with a rule gets a filter: the others' events take the shared path unchanged.
        let filter = rule.isEmpty ? nil : DeliveryFilter(rule: rule, clock: hub.clock, wake: ready)
        if let filter { for topic in topics { filter.start(topic) } }
        let subscription = Subscription(subscriber: StreamHub.Subscriber(ready: ready, filter: filter), topics: topics, hub: hub, metrics: metrics)
        metrics.streamClients(1)
        for topic in topics where !hub.subscribe(subscription.subscriber, to: topic, after: lastEventID, fleet: fleet) {
            subscription.cancel()
            return nil
        }
        return subscription
    }

    /// One client's subscription to its topics.
    final class Subscription: ServeEventSubscription {
        let subscriber: StreamHub.Subscriber
        let topics: [StreamHub.TopicKey]
        let hub: StreamHub
        let metrics: ServeMetrics

        init(subscriber: StreamHub.Subscriber, topics: [StreamHub.TopicKey], hub: StreamHub, metrics: ServeMetrics) {
            self.subscriber = subscriber
            self.topics = topics
            self.hub = hub
            self.metrics = metrics
        }

        func take() -> [String] {
            guard let filter = subscriber.filter else { return subscriber.take() }
            return filter.select(subscriber.takeTagged())
        }

        /// ``StreamPlan/tooFarBehind`` once the client has stayed behind for ``StreamHub/Subscriber/maxLag``.
        func lastWords(at now: ContinuousClock.Instant) -> String? {
            guard let since = subscriber.behindSince, since.duration(to: now) >= StreamHub.Subscriber.maxLag else { return nil }
            return StreamPlan.tooFarBehind
        }

        /// Called once, by the stream's writer (or by ``StreamPlan/subscribe(ready:)`` when a topic refused).
        func cancel() {
            for topic in topics { hub.unsubscribe(subscriber, from: topic) }
            subscriber.filter?.stop()
            metrics.streamClients(-1)
        }
    }

    /// The last event of a client cut off for staying behind; no `id:`, so its
    /// `Last-Event-ID` stays the last event it got, and a reconnect gets what it missed.
    static let tooFarBehind = "event: error\ndata: {\"error\":\"this client fell behind the stream for \(StreamHub.Subscriber.maxLag.components.seconds) s and is disconnected; reconnect with Last-Event-ID to get what it missed\"}\n\n"
}
