import PriceHostCore
import ProviderABI

extension FeedGroup {
    /// A sign of life: the feed is fresh again, and a stale one recovers (REST stops).
    func noteMessage() {
        let fallback: Task<Void, Never>?? = state.withLock { state in
            state.lastMessage = .now
            guard state.stale else { return .none }
            state.stale = false
            defer { state.fallback = nil }
            return .some(state.fallback)
        }
        guard let fallback else { return }
        fallback?.cancel()
        runner.diagnostics.warning("\(runner.provider): the feed recovered; REST polling stopped")
    }

    /// Watches for silence: after `staleAfterSeconds` with no message the feed is stale,
    /// its connection is closed, and REST polls every `fallbackIntervalSeconds` until a message comes.
    func watch() async {
        let staleAfter = runner.policy.stream.staleAfter(heartbeat: runner.stream.heartbeatInterval)
        let tick = min(staleAfter / 4, .milliseconds(250))
        while !Task.isCancelled {
            try? await Task.sleep(for: tick)
            let becameStale = state.withLock { state in
                guard !state.stale, !state.stopped, ContinuousClock.now - state.lastMessage >= staleAfter else { return false }
                state.stale = true
                return true
            }
            guard becameStale else { continue }
            let interval = runner.policy.stream.fallbackInterval
            runner.diagnostics.warning("\(runner.provider): the feed is stale: no message for \(Durations.seconds(staleAfter)) s; "
                + "polling REST every \(Durations.seconds(interval)) s until it recovers")
            let fallback = Task(executorPreference: runner.taskExecutor) { [self] in await poll(every: interval) }
            let keep = state.withLock { state in
                guard state.stale, !state.stopped else { return false }
                state.fallback = fallback
                return true
            }
            if !keep { fallback.cancel() }
            continuation.yield(.stale)
        }
    }

    /// REST in the feed's place: each pair every `interval`, its quotes marked `rest`.
    private func poll(every interval: Duration) async {
        var lastFailure: String?
        while !Task.isCancelled {
            for pair in state.withLock({ $0.pairs }) {
                guard !Task.isCancelled else { return }
                do {
                    let quote = try await runner.rest.fetchQuote(for: pair)
                    guard !Task.isCancelled else { return }
                    lastFailure = nil
                    runner.offer(asset: quote.asset, currency: quote.currency, amount: DecimalAmount.format(quote.amount),
                                 timestampMilliseconds: Int64((quote.timestamp.timeIntervalSince1970 * 1000).rounded()),
                                 source: .rest, pairs: nil)
                } catch {
                    let message = "\(error)"
                    if message != lastFailure {
                        runner.diagnostics.warning("\(runner.provider): REST fallback for \(pair.pair) failed: \(message)")
                    }
                    lastFailure = message
                }
            }
            try? await Task.sleep(for: interval)
        }
    }
}
