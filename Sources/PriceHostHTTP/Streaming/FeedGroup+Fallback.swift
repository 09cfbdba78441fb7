import PriceHostCore
import ProviderABI

extension FeedGroup {
    /// A sign of life, a price or a heartbeat (never a connection or an acknowledgement): the feed is
    /// fresh again, and a stale one recovers (REST stops).
    func noteMessage() {
        let now = runner.clock.now
        let fallback: Task<Void, Never>?? = state.withLock { state in
            state.lastMessage = now
            guard state.stale else { return .none }
            state.stale = false
            defer { state.fallback = nil }
            return .some(state.fallback)
        }
        guard let fallback else { return }
        fallback?.cancel()
        runner.diagnostics.warning("\(runner.provider): the feed recovered; REST polling stopped")
    }

    /// Watches for silence: after `staleAfterSeconds` with no price or heartbeat the feed is stale,
    /// its connection is closed, and REST polls every `fallbackIntervalSeconds` until one comes. While
    /// stale, each new connection that brings none within `staleAfterSeconds` is closed too (and
    /// reconnected with backoff), however many it takes: one stale warning, one recovered warning.
    func watch() async {
        let staleAfter = runner.policy.stream.staleAfter(heartbeat: runner.stream.heartbeatInterval)
        let tick = min(staleAfter / 4, .milliseconds(250))
        let seconds = Durations.seconds(staleAfter)
        while !Task.isCancelled {
            try? await runner.clock.sleep(for: tick)
            let now = runner.clock.now
            let silence = state.withLock { state -> Silence? in
                guard !state.stopped else { return nil }
                if !state.stale {
                    guard now - state.lastMessage >= staleAfter else { return nil }
                    state.stale = true
                    state.silentSince = nil
                    return .feed
                }
                guard let since = state.silentSince, now - since >= staleAfter else { return nil }
                state.silentSince = nil
                return .connection
            }
            switch silence {
            case nil:
                continue
            case .connection:
                continuation.yield(.stale("closed the connection: no price or heartbeat in the \(seconds) s since it opened"))
                continue
            case .feed:
                break
            }
            let interval = runner.policy.stream.fallbackInterval
            runner.diagnostics.warning("\(runner.provider): the feed is stale: no price or heartbeat for \(seconds) s; "
                + "polling REST every \(Durations.seconds(interval)) s until it recovers")
            let fallback = Task(executorPreference: runner.taskExecutor) { [self] in await poll(every: interval) }
            let keep = state.withLock { state in
                guard state.stale, !state.stopped else { return false }
                state.fallback = fallback
                return true
            }
            if !keep { fallback.cancel() }
            continuation.yield(.stale("closed the stale connection"))
        }
    }

    /// What the watchdog found: the feed went silent, or (while stale) a new connection brought nothing.
    private enum Silence { case feed, connection }

    /// REST in the feed's place: each pair every `interval`, its quotes marked `rest`. A round starts
    /// `interval` after the previous one started, not after it ended: a slow fetch does not stretch the
    /// gap between two quotes (a round that overran starts the next at once, with no burst to catch up).
    private func poll(every interval: Duration) async {
        var lastFailure: String?
        while !Task.isCancelled {
            let started = runner.clock.now
            for pair in state.withLock({ $0.pairs }) {
                guard !Task.isCancelled else { return }
                do {
                    let quote = try await runner.rest.fetchQuote(for: pair)
                    guard !Task.isCancelled else { return }
                    lastFailure = nil
                    runner.offer(asset: quote.asset, currency: quote.currency, amount: DecimalAmount.format(quote.amount),
                                 timestampMilliseconds: Int64((quote.timestamp.timeIntervalSince1970 * 1000).rounded()),
                                 bid: quote.bid.map(DecimalAmount.format), ask: quote.ask.map(DecimalAmount.format),
                                 source: .rest, pairs: nil)
                } catch {
                    let message = "\(error)"
                    if message != lastFailure {
                        runner.diagnostics.warning("\(runner.provider): REST fallback for \(pair.pair) failed: \(message)")
                    }
                    lastFailure = message
                }
            }
            try? await runner.clock.sleep(until: started + interval)
        }
    }
}
