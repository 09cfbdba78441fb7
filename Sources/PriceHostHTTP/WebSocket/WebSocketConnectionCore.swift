import ConcurrencyHelpers
import PriceHostCore

/// What a ``WebSocketConnection`` and its thread share: the protocol state, the
/// frames queued for writing, and how the connection ended. Everything is behind
/// one pthread `Lock`; the libcurl handle is not here, it stays on the thread.
final class WebSocketConnectionCore: Sendable {
    /// Resumed with the outcome of one queued write.
    typealias Waiter = CheckedContinuation<Result<Void, WebSocketError>, Never>

    /// A frame for the connection's thread to write.
    struct Write: Sendable {
        var bytes: [UInt8]
        /// Told once all the bytes are written; `nil` for frames nobody waits on (a close).
        var waiter: Waiter?
    }

    struct Shared: Sendable {
        var state: WebSocketConnectionState
        var queued: [Write] = []
        /// Why the connection is over, once it is: what a late send is told.
        var ended: WebSocketError?
        var closeWaiters: [CheckedContinuation<Void, Never>] = []
        /// The ``WebSocketConnection`` was released: close with 1001.
        var abandoned = false
        /// Events yielded and not yet taken from ``WebSocketConnection/events``.
        var unread = 0
        /// The thread stopped reading because ``unread`` reached ``readAhead``: the reader wakes it.
        var readingPaused = false
    }

    /// Events the thread reads ahead of the reader at most: past it, it stops reading the
    /// socket, so TCP pushes back on the server rather than messages piling up here.
    static let readAhead = 1024

    let url: WebSocketURL
    // A pthread lock, not `Mutex`: callers contend with the connection's thread (see `Lock`).
    let shared: Lock<Shared>
    let wakePipe: WakePipe
    let sink: AsyncStream<WebSocketEvent>.Continuation
    /// Takes the events on the connection's thread instead of ``sink``, when given.
    let handler: (any WebSocketEventHandler)?

    init(url: WebSocketURL, state: WebSocketConnectionState, wakePipe: WakePipe, sink: AsyncStream<WebSocketEvent>.Continuation,
         handler: (any WebSocketEventHandler)?) {
        self.url = url
        shared = Lock(Shared(state: state))
        self.wakePipe = wakePipe
        self.sink = sink
        self.handler = handler
    }

    /// Hands `event` on, on the connection's thread: to the handler, or to the events' reader
    /// (counted in ``Shared/unread`` by the caller). Returns the frames of the handler's replies,
    /// for the thread to write next, before anything the protocol answers to later bytes (a close).
    @discardableResult
    func deliver(_ event: WebSocketEvent) -> [UInt8] {
        guard let handler else {
            sink.yield(event)
            return []
        }
        let replies = handler.received(event)
        guard !replies.isEmpty else { return [] }
        return shared.withLock { shared in
            var frames: [UInt8] = []
            guard shared.ended == nil else { return frames }
            for reply in replies {
                // Refused once the close has started: a reply may not follow our close frame.
                guard let bytes = try? shared.state.makeTextFrame(reply) else { break }
                frames += bytes
            }
            return frames
        }
    }

    /// Queues the frame `make` builds from the state, and waits until it is written.
    func write(_ make: (inout WebSocketConnectionState) throws(WebSocketError) -> [UInt8]) async throws(WebSocketError) {
        let result: Result<Void, WebSocketError> = await withCheckedContinuation { continuation in
            let refused = shared.withLock { shared -> WebSocketError? in
                if let ended = shared.ended { return ended }
                do throws(WebSocketError) {
                    // Made and queued under one lock: frames go out in the order their state made them,
                    // so no message can follow our close frame.
                    shared.queued.append(Write(bytes: try make(&shared.state), waiter: continuation))
                    return nil
                } catch {
                    return error
                }
            }
            if let refused {
                continuation.resume(returning: .failure(refused))
            } else {
                wakePipe.wake()
            }
        }
        try result.get()
    }

    /// Queues a close frame (unless the handshake has started) and waits until the connection has ended.
    func close(code: WebSocketCloseCode, reason: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let over = shared.withLock { shared -> Bool in
                if shared.ended != nil { return true }
                shared.closeWaiters.append(continuation)
                if shared.state.phase == .open, let bytes = try? shared.state.startClose(code: code, reason: reason) {
                    shared.queued.append(Write(bytes: bytes, waiter: nil))
                }
                return false
            }
            if over {
                continuation.resume()
            } else {
                wakePipe.wake()
            }
        }
    }

    /// The reader took an event: past half the read-ahead, a paused thread reads again.
    func taken() {
        let resume = shared.withLock { shared in
            shared.unread -= 1
            guard shared.readingPaused, shared.unread <= Self.readAhead / 2 else { return false }
            shared.readingPaused = false
            return true
        }
        if resume { wakePipe.wake() }
    }

    /// The connection object is gone: its thread closes with 1001 and ends.
    func abandon() {
        shared.withLock { $0.abandoned = true }
        wakePipe.wake()
    }

    /// Marks the connection over for `reason`, ends the events with `lastEvent` (if any), and
    /// answers everyone still waiting: `unwritten` and queued writes fail, closes return.
    func end(reason: String, lastEvent: WebSocketEvent?, unwritten: [Waiter]) {
        let ended = WebSocketError.connectionClosed(url, reason)
        let (queued, closeWaiters) = shared.withLock { shared in
            shared.ended = ended
            // Counted as every event for the reader is: its taking it is counted off.
            if lastEvent != nil, handler == nil { shared.unread += 1 }
            defer {
                shared.queued = []
                shared.closeWaiters = []
            }
            return (shared.queued, shared.closeWaiters)
        }
        if let lastEvent { deliver(lastEvent) }
        // Finished before a close returns: after `await close()`, the events end.
        sink.finish()
        handler?.ended()
        for waiter in unwritten + queued.compactMap(\.waiter) { waiter.resume(returning: .failure(ended)) }
        for waiter in closeWaiters { waiter.resume() }
    }
}
