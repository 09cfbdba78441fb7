import ConcurrencyHelpers
import FoundationEssentials
import PriceHostCore
import PriceHostStore

/// `watch --stream`'s delivery rule (`--deviation-bps`, `--heartbeat`, `--max-age`), per printed
/// series: a pair from one provider, or a pair's median. Each keeps the last price printed for it
/// (``DeliveryPair``); a heartbeat prints its latest line again, timed on the injected clock; a
/// stale quote is not printed, and a warning says so once until a fresh one comes.
final class StreamGate: Sendable {
    private struct Series {
        var delivery: DeliveryPair
        var latest: (line: String, amount: Decimal, timestamp: Date, stored: StoredQuote)?
    }

    private let rule: DeliveryRule
    private let clock: any PriceClock
    private let printer: StreamPrinter
    private let warn: @Sendable (String) -> Void
    private let series = Lock<[String: Series]>([:])
    private let heartbeats: HeartbeatTimers<String>?

    init(rule: DeliveryRule, clock: any PriceClock, printer: StreamPrinter, warn: @escaping @Sendable (String) -> Void) {
        self.rule = rule
        self.clock = clock
        self.printer = printer
        self.warn = warn
        heartbeats = rule.heartbeat.map { HeartbeatTimers(clock: clock, heartbeat: $0) }
    }

    /// An update of `key` (named `label` in a warning): printed if the rule selects it.
    func offer(_ key: String, label: String, amount: Decimal, timestamp: Date, line: String, recording stored: StoredQuote) {
        let now = clock.now
        // Decided and printed under the lock: a heartbeat on the clock's thread never prints an older line after a newer one.
        let arm = series.withLock { series -> Bool in
            let isNew = series[key] == nil
            var entry = series[key] ?? Series(delivery: DeliveryPair(since: now))
            entry.latest = (line, amount, timestamp, stored)
            let decision = entry.delivery.offer(amount, at: timestamp, rule: rule, now: now, wallNow: clock.wallNow)
            series[key] = entry
            act(decision, key: key, label: label, line: line, stored: stored)
            return isNew
        }
        if arm { armHeartbeat(key, label: label, at: now) }
    }

    private func act(_ decision: DeliveryPair.Decision, key: String, label: String, line: String, stored: StoredQuote) {
        switch decision {
        case .deliver:
            printer.print(line, recording: stored)
        case .skip:
            break
        case .stale(let age):
            warn("watch --stream: \(label) is stale: its quote is \(Durations.seconds(.milliseconds(age))) s old, more than --max-age "
                 + "\(Durations.seconds(rule.maxAge ?? .zero)) s; its prices are not printed until a fresh one")
        }
    }

    private func armHeartbeat(_ key: String, label: String, at from: ContinuousClock.Instant) {
        heartbeats?.arm(key, from: from) { [weak self] now in self?.heartbeatTimerFired(key, label: label, at: now) ?? now }
    }

    /// Prints `key`'s latest line again if nothing was printed for it since; returns when the next heartbeat is timed from.
    private func heartbeatTimerFired(_ key: String, label: String, at now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        series.withLock { series -> ContinuousClock.Instant in
            guard var entry = series[key] else { return now }
            defer { series[key] = entry }
            guard entry.delivery.heartbeatDue(rule, at: now) else { return entry.delivery.lastDeliveredAt }
            guard let latest = entry.latest else { return now }
            let decision = entry.delivery.offer(latest.amount, at: latest.timestamp, rule: rule, heartbeat: true, now: now, wallNow: clock.wallNow)
            act(decision, key: key, label: label, line: latest.line, stored: latest.stored)
            return now
        }
    }

    /// Cancels every heartbeat.
    func stop() {
        heartbeats?.stop()
    }
}
