import ProviderABI

/// The venues' feeds, as the commands and `serve` use them: the host's WebSocket
/// feeds live in the HTTP layer; this is what the layers above see.
package protocol QuoteFeeds: Sendable {
    /// Whether `provider` has a feed this host can stream (its plugin describes one, and it has a REST fetcher to fall back on).
    func hasFeed(_ provider: String) -> Bool
    /// Delivers `provider`'s updates for `pair` to `handler`, from any thread and in order,
    /// until the subscription is cancelled. `nil` when `provider` has no feed.
    func subscribe(provider: String, pair: QuoteRequest,
                   handler: @escaping @Sendable (StreamUpdate) -> Void) -> FeedSubscription?
    /// The feeds' metrics in Prometheus text (empty when none ran).
    func metricsText() -> String
    /// `provider`'s feed state: 0 connecting, 1 live, 2 stale; `nil` when it is not running.
    func stateGauge(_ provider: String) -> Int?
    /// Closes `provider`'s connections; a later subscription starts them again.
    func stop(provider: String) async
    /// Closes every connection.
    func stop() async
    /// The fleet's events of `pair` after `sequence` (`serve` with `shared.redis`), oldest first,
    /// each with its sequence and its update; `nil` when there is no fleet. Blocks: call it off the pool.
    func fleetBacklog(provider: String, pair: QuoteRequest, after sequence: UInt64) async -> [StreamUpdate]?
    /// The fleet's epoch, once known; `nil` without a fleet.
    var fleetEpoch: UInt64? { get }
    /// The fleet's epoch, read from the fleet now when not known yet (bounded by its timeouts); `nil` without a fleet.
    func loadFleetEpoch() async -> UInt64?
}

extension QuoteFeeds {
    package func fleetBacklog(provider: String, pair: QuoteRequest, after sequence: UInt64) async -> [StreamUpdate]? { nil }
    package var fleetEpoch: UInt64? { nil }
    package func loadFleetEpoch() async -> UInt64? { nil }
}

/// An active subscription to a feed; cancel it to stop its deliveries.
package final class FeedSubscription: Sendable {
    private let onCancel: @Sendable () -> Void

    package init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    /// Stops deliveries; the feed drops its pair when nobody else wants it.
    package func cancel() { onCancel() }
}
