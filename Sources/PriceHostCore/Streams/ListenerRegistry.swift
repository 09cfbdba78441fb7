import ProviderABI

/// The listeners of a feed's pairs, and each pair's last update: what a provider's feed
/// (`FeedRunner`) and a fleet feed (`FleetFeeds`) both keep.
///
/// A value, kept in its owner's locked state: the owner calls ``add(_:for:)`` and
/// ``deliver(_:to:)`` under its lock, so that every listener sees a pair's updates in order
/// and a new listener gets the last one before any later one.
package struct ListenerRegistry: Sendable {
    /// A listener's handler: called under the owner's lock, so it must not block.
    package typealias Handler = @Sendable (StreamUpdate) -> Void

    private var listeners: [QuoteRequest: [Int: Handler]] = [:]
    private var nextID = 0
    /// Each pair's last update, which a new listener gets at once.
    private var last: [QuoteRequest: StreamUpdate] = [:]

    package init() {}

    /// The pairs somebody listens to.
    package var pairs: [QuoteRequest] { Array(listeners.keys) }

    /// Adds `handler` as a listener of `pair`, and hands it the pair's last update at once.
    /// - Returns: the listener's id, for ``remove(_:from:)``, and whether it is the pair's first listener.
    package mutating func add(_ handler: @escaping Handler, for pair: QuoteRequest) -> (id: Int, isFirst: Bool) {
        nextID += 1
        let isFirst = listeners[pair] == nil
        listeners[pair, default: [:]][nextID] = handler
        if let last = last[pair] { handler(last) }
        return (nextID, isFirst)
    }

    /// Removes the listener `id` of `pair`; the pair goes with its last listener.
    package mutating func remove(_ id: Int, from pair: QuoteRequest) {
        listeners[pair]?[id] = nil
        if listeners[pair]?.isEmpty == true { listeners[pair] = nil }
    }

    /// Keeps `update` as `pair`'s last, and hands it to the pair's listeners.
    package mutating func deliver(_ update: StreamUpdate, to pair: QuoteRequest) {
        last[pair] = update
        for handler in listeners[pair]?.values ?? [:].values { handler(update) }
    }
}
