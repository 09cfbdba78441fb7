import ConcurrencyHelpers
import PriceHostCore

/// Reads one connection's messages, on the connection's own thread (``WebSocketEventHandler``):
/// a ticker goes from the socket to its listeners without waking another thread.
///
/// A price or a heartbeat is a sign of life, and the first one makes the connection live; an
/// acknowledgement, a reply or a pong is not. What the group's loop hears of the connection
/// (``FeedSignal/live(_:)``, an error, a hand-over, its end) names its ``FeedLink``, which exists
/// only once the connection has opened: signals from before ``attach(_:)`` wait for it, so the
/// loop hears of a link after its `.opened`, as it would from a reader started then. Quotes do not
/// wait. Once ``stop()`` is called (the loop let the link go), its messages are ignored.
final class FeedReader: WebSocketEventHandler {
    private let pairs: StreamPairs

    private struct State {
        /// Weak, as the link: the connection holds its reader, so a strong reference would make a cycle (the group's
        /// signals hold links, a link its connection) that keeps a stopped feed's connection open for good.
        weak var group: FeedGroup?
        /// Weak: releasing the link must still release its connection, which then closes (going away).
        weak var link: FeedLink?
        /// Signals waiting for the link.
        var held: [@Sendable (FeedLink) -> FeedSignal] = []
        var sequences: [String: Int64] = [:]
        var announced = false
        var end = "the connection ended"
        /// `.ended` went to the loop, or the loop let the link go: nothing more is said or read.
        var over = false
    }

    private let state: Lock<State>

    init(group: FeedGroup, pairs: StreamPairs) {
        self.pairs = pairs
        state = Lock(State(group: group))
    }

    /// The connection opened as `link`, and the loop knows it: what waited for it goes out.
    func attach(_ link: FeedLink) {
        state.withLock { state in
            state.link = link
            for make in state.held { state.group?.continuation.yield(make(link)) }
            state.held = []
        }
    }

    /// The loop let the link go: its end is reported now, if it was not yet, and its messages are no longer read.
    func stop() {
        state.withLock { state in
            guard !state.over else { return }
            state.over = true
            if let link = state.link { state.group?.continuation.yield(.ended(link, state.end)) }
        }
    }

    func received(_ event: WebSocketEvent) -> [String] {
        // Once over, or once the group is gone (its feed stopped), the messages are the connection's last: not read.
        guard let group = state.withLock({ $0.over ? nil : $0.group }) else { return [] }
        switch event {
        case .text(let text):
            let (replies, alive) = handle(text, runner: group.runner)
            if alive {
                group.noteMessage()
                let first = state.withLock { state in
                    defer { state.announced = true }
                    return !state.announced
                }
                if first { signal { .live($0) } }
            }
            return replies
        case .binary, .pong:
            return []
        case .closed(let code, let reason):
            let end = "the venue closed the connection (\(code.rawValue)\(reason.isEmpty ? "" : " \(reason)"))"
            state.withLock { $0.end = end }
        case .protocolError(let error):
            state.withLock { $0.end = "the venue broke the WebSocket protocol: \(error)" }
        }
        return []
    }

    func ended() {
        state.withLock { state in
            guard !state.over else { return }
            let end = state.end
            hold(&state) { .ended($0, end) }
            state.over = true
        }
    }

    /// Sends the loop what `make` makes of the link, now or once it is attached.
    private func signal(_ make: @escaping @Sendable (FeedLink) -> FeedSignal) {
        state.withLock { state in
            guard !state.over else { return }
            hold(&state, make)
        }
    }

    private func hold(_ state: inout State, _ make: @escaping @Sendable (FeedLink) -> FeedSignal) {
        if let link = state.link {
            state.group?.continuation.yield(make(link))
        } else {
            state.held.append(make)
        }
    }

    /// What the plugin reads in one message, acted on; returns the replies to send, and whether
    /// the message was a price or a heartbeat (a repeated price included: the venue is alive).
    private func handle(_ text: String, runner: FeedRunner) -> (replies: [String], alive: Bool) {
        runner.countMessage()
        var replies: [String] = []
        var dropQuotes = false
        var alive = false
        for event in runner.stream.read(text, pairs: pairs) {
            switch event {
            case .quote(let asset, let currency, let amount, let milliseconds, let bid, let ask):
                alive = true
                guard !dropQuotes else { continue }
                runner.offer(asset: asset, currency: currency, amount: amount, timestampMilliseconds: milliseconds,
                             bid: bid, ask: ask, source: .stream, pairs: pairs.requests)
            case .heartbeat:
                alive = true
            case .sequence(let number, let scope):
                // A number not above the last one repeats what was delivered: its quotes are dropped.
                let last = state.withLock { state -> Int64? in
                    let last = state.sequences[scope]
                    if last.map({ number > $0 }) ?? true { state.sequences[scope] = number }
                    return last
                }
                guard let last else { continue }
                if number > last &+ 1 { runner.countGap(scope: scope, expected: last &+ 1, got: number) }
                if number <= last { dropQuotes = true }
            case .error(let message):
                signal { .venueError($0, message) }
            case .reconnect(let reason):
                signal { .handover($0, "the venue asked for a reconnect (\(reason))") }
            case .reply(let reply):
                replies.append(reply)
            }
        }
        return (replies, alive)
    }
}
