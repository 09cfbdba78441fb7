import ConcurrencyHelpers

/// The heartbeat timers of one client's delivery rule, one per series (a stream's pair, a printed
/// line's), on the client's ``PriceClock``: a series' timer fires `heartbeat` after the instant it
/// was armed from; what fired says from when the next is timed (its last delivery, or now).
/// Used by serve's stream filter and `watch --stream`'s gate.
package final class HeartbeatTimers<Key: Hashable & Sendable>: Sendable {
    private let clock: any PriceClock
    private let heartbeat: Duration
    /// Each key's timer with the number of the `arm` that made it: numbers rise with each call, and a timer
    /// is kept only if no later call's is. (A timer can fire, and arm the next, before the call that scheduled
    /// it has stored it: the spent one must not then replace, and cancel, the next.)
    private let state = Lock<(stopped: Bool, next: UInt64, timers: [Key: (number: UInt64, timer: ClockTimer)])>((false, 0, [:]))

    package init(clock: any PriceClock, heartbeat: Duration) {
        self.clock = clock
        self.heartbeat = heartbeat
    }

    /// Times `key`'s next heartbeat at `from` plus the heartbeat, replacing the one it had. `fired`
    /// runs then, on the clock's thread, and returns the instant the next one is timed from.
    package func arm(_ key: Key, from: ContinuousClock.Instant,
                     fired: @escaping @Sendable (_ now: ContinuousClock.Instant) -> ContinuousClock.Instant) {
        let number: UInt64? = state.withLock { state in
            guard !state.stopped else { return nil }
            state.next += 1
            return state.next
        }
        guard let number else { return }
        let timer = clock.schedule(at: from + heartbeat) { [weak self, clock] in
            guard let self else { return }
            arm(key, from: fired(clock.now), fired: fired)
        }
        let (replaced, kept) = state.withLock { state -> (ClockTimer?, Bool) in
            guard !state.stopped else { return (nil, false) }
            if let current = state.timers[key], current.number > number { return (nil, false) }
            defer { state.timers[key] = (number, timer) }
            return (state.timers[key]?.timer, true)
        }
        replaced?.cancel()
        if !kept { timer.cancel() }
    }

    /// Cancels every timer; none is armed again.
    package func stop() {
        let timers = state.withLock { state in
            state.stopped = true
            defer { state.timers = [:] }
            return state.timers.values.map(\.timer)
        }
        for timer in timers { timer.cancel() }
    }
}
