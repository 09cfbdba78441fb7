import ConcurrencyHelpers

/// The heartbeat timers of one client's delivery rule, one per series (a stream's pair, a printed
/// line's), on the client's ``PriceClock``: a series' timer fires `heartbeat` after the instant it
/// was armed from; what fired says from when the next is timed (its last delivery, or now).
/// Used by serve's stream filter and `watch --stream`'s gate.
package final class HeartbeatTimers<Key: Hashable & Sendable>: Sendable {
    private let clock: any PriceClock
    private let heartbeat: Duration
    private let state = Lock<(stopped: Bool, timers: [Key: ClockTimer])>((false, [:]))

    package init(clock: any PriceClock, heartbeat: Duration) {
        self.clock = clock
        self.heartbeat = heartbeat
    }

    /// Times `key`'s next heartbeat at `from` plus the heartbeat, replacing the one it had. `fired`
    /// runs then, on the clock's thread, and returns the instant the next one is timed from.
    package func arm(_ key: Key, from: ContinuousClock.Instant,
                     fired: @escaping @Sendable (_ now: ContinuousClock.Instant) -> ContinuousClock.Instant) {
        let timer = clock.schedule(at: from + heartbeat) { [weak self, clock] in
            guard let self else { return }
            arm(key, from: fired(clock.now), fired: fired)
        }
        let (old, stopped) = state.withLock { state in
            defer { if !state.stopped { state.timers[key] = timer } }
            return (state.timers[key], state.stopped)
        }
        old?.cancel()
        if stopped { timer.cancel() }
    }

    /// Cancels every timer; none is armed again.
    package func stop() {
        let timers = state.withLock { state in
            state.stopped = true
            defer { state.timers = [:] }
            return Array(state.timers.values)
        }
        for timer in timers { timer.cancel() }
    }
}
