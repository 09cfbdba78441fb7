import ConcurrencyHelpers
import PriceHostCore

/// The holder's updates waiting to be relayed through Redis, taken in batches: what queues
/// while one round trip is out goes in the next, together. Bounded: past ``capacity`` the
/// oldest update is dropped (a newer one of its pair follows it).
final class RelayQueue: Sendable {
    /// The most updates waiting.
    static let capacity = 10_000
    /// The most updates in one round trip.
    static let batch = 64

    /// One element each time updates arrive; the relaying loop wakes on it and takes what waits.
    let signals: AsyncStream<Void>
    private let signal: AsyncStream<Void>.Continuation
    private let waiting = Lock<[StreamUpdate]>([])

    init() {
        (signals, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Queues `update` and wakes the relaying loop.
    func push(_ update: StreamUpdate) {
        waiting.withLock { waiting in
            if waiting.count >= Self.capacity { waiting.removeFirst() }
            waiting.append(update)
        }
        signal.yield()
    }

    /// The oldest waiting updates, at most ``batch``, in order; empty when none waits.
    func take() -> [StreamUpdate] {
        waiting.withLock { waiting in
            let count = min(waiting.count, Self.batch)
            defer { waiting.removeFirst(count) }
            return Array(waiting.prefix(count))
        }
    }
}
