import PriceHostCore
import ProviderABI

extension FleetFeeds {
    /// Redis is down, or refuses the feed's keys: this instance streams its own pairs from its own
    /// connection, and says so once (`warning`, when not said already).
    func streamAlone(_ provider: String, saying warning: String?) async {
        let becameAlone = state.withLock { state -> Bool in
            guard state.feeds[provider]?.alone == false else { return false }
            state.feeds[provider]?.alone = true
            state.feeds[provider]?.holding = false
            return true
        }
        if becameAlone {
            if let warning { diagnostics.warning(warning) }
            await dropUpstream(provider, alone: true)
        }
        let wanted = state.withLock { $0.feeds[provider]?.listeners.pairs ?? [] }
        subscribeUpstream(provider, pairs: wanted) { [weak self] update in self?.deliver(update, provider: provider) }
    }

    /// Subscribes the local feed to the pairs it does not have yet.
    func subscribeUpstream(_ provider: String, pairs: [QuoteRequest], handler: @escaping @Sendable (StreamUpdate) -> Void) {
        let missing = state.withLock { state in pairs.filter { state.feeds[provider]?.upstream[$0] == nil } }
        for pair in missing {
            guard let subscription = local.subscribe(provider: provider, pair: pair, handler: handler) else { continue }
            state.withLock { $0.feeds[provider]?.upstream[pair] = subscription }
        }
    }

    /// Closes the local feed (losing the lease, or leaving or entering the alone mode).
    func dropUpstream(_ provider: String, alone: Bool) async {
        let subscriptions = state.withLock { state -> [FeedSubscription] in
            defer {
                state.feeds[provider]?.upstream = [:]
                state.feeds[provider]?.holding = false
                state.feeds[provider]?.alone = alone
                state.feeds[provider]?.staleSince = nil
            }
            return Array(state.feeds[provider]?.upstream.values ?? [:].values)
        }
        for subscription in subscriptions { subscription.cancel() }
        await local.stop(provider: provider)
    }
}
