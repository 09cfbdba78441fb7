import ConcurrencyHelpers

/// One webhook's bounded queue of bodies to post: past ``capacity`` the oldest waiting is dropped
/// (and counted by the caller). Whoever waits is told with `signal`, which never blocks.
final class WebhookQueue: Sendable {
    /// Bodies waiting at most.
    static let capacity = 1_024

    private let bodies = Lock<[[UInt8]]>([])
    private let signal: AsyncStream<Void>.Continuation
    /// Yields once (at least) after bodies were added.
    let added: AsyncStream<Void>

    init() {
        (added, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Adds `body`; returns how many waiting bodies were dropped to make room.
    func push(_ new: [[UInt8]]) -> Int {
        guard !new.isEmpty else { return 0 }
        let dropped = bodies.withLock { bodies in
            bodies += new
            let excess = max(0, bodies.count - Self.capacity)
            bodies.removeFirst(excess)
            return excess
        }
        signal.yield()
        return dropped
    }

    /// The oldest body waiting, taken off the queue.
    func pop() -> [UInt8]? {
        bodies.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }

    /// Ends `added`: whoever waits on it stops.
    func finish() {
        signal.finish()
    }
}
