import Glibc
import PriceHostCore

/// The thread of one ``WebSocketConnection``: opens it, does the upgrade, then
/// reads, writes and keeps time until it ends. The ``CurlStream`` (and so the
/// libcurl handle) is made, used and released here and nowhere else.
///
/// Each turn: take what callers queued, write what the socket takes, read until
/// libcurl says `CURLE_AGAIN` (TLS may hold decrypted bytes while the socket reads
/// as idle), check the close deadline, then `poll` the socket and the wake pipe
/// for at most ``pollMilliseconds``.
struct WebSocketIOLoop {
    /// How an open connection ended.
    enum Ending {
        /// The protocol is over: the close handshake, or a protocol error answered with its close frame.
        case done(String)
        /// The connection broke or timed out: reported as 1006.
        case broken(String)
    }

    /// The longest `poll`: how often an idle connection looks at the clock.
    static let pollMilliseconds = 100
    /// The most chunks read in one turn before the queue and the clock get a look.
    static let chunksPerTurn = 64

    private let stream: CurlStream
    private let core: WebSocketConnectionCore
    private let closeTimeout: Duration
    /// Bytes to write, from ``written`` on.
    private var output: [UInt8] = []
    private var written = 0
    /// Writes waiting for their bytes, with the offset in ``output`` where each frame ends.
    private var waiters: [(end: Int, waiter: WebSocketConnectionCore.Waiter)] = []
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// When a close that has started must be over.
    private var closeDeadline: ContinuousClock.Instant?
    /// Why the protocol is over (close handshake or protocol error), once it is: write what is left, then end.
    private var protocolOver: String?
    /// Reading stopped at ``chunksPerTurn`` with more perhaps waiting: the next poll does not sleep.
    private var moreToRead = false

    /// The thread's body: opens the connection, answers `request`'s continuation, and runs it until it ends.
    static func run(_ request: OpenRequest) {
        guard let (core, ending, unwritten) = serve(request) else { return }
        // The stream was released with `serve`'s frame: the socket is closed before anyone hears of the end.
        switch ending {
        case .done(let reason): core.end(reason: reason, lastEvent: nil, unwritten: unwritten)
        case .broken(let reason): core.end(reason: reason, lastEvent: .closed(code: .abnormalClosure, reason: reason), unwritten: unwritten)
        }
    }

    private static func serve(_ request: OpenRequest) -> (WebSocketConnectionCore, Ending, [WebSocketConnectionCore.Waiter])? {
        let url = request.handshake.url
        let stream: CurlStream
        let upgrade: WebSocketHandshake.Upgrade
        do throws(WebSocketError) {
            stream = try CurlStream.open(curl: request.curl, url: url, options: request.options)
            upgrade = try handshake(request.handshake, on: stream, timeout: request.options.handshakeTimeout)
        } catch {
            request.answer(.failure(error))
            return nil
        }
        guard let wakePipe = WakePipe() else {
            request.answer(.failure(.connect(.unavailable, url, "no descriptor left for the connection's wake pipe")))
            return nil
        }
        let (events, sink) = AsyncStream<WebSocketEvent>.makeStream()
        let core = WebSocketConnectionCore(url: url, state: WebSocketConnectionState(maximumMessageSize: request.options.maxMessageBytes),
                                           wakePipe: wakePipe, sink: sink, handler: request.handler)
        // Made in the call, so this thread keeps no reference: releasing the connection must reach `abandon`.
        request.answer(.success(WebSocketConnection(url: url, selectedProtocol: upgrade.selectedProtocol, events: events, core: core)))
        var loop = WebSocketIOLoop(stream: stream, core: core, closeTimeout: request.options.closeTimeout)
        let ending = loop.run(startingWith: upgrade.remainder)
        return (core, ending, loop.waiters.map(\.waiter))
    }

    private init(stream: CurlStream, core: WebSocketConnectionCore, closeTimeout: Duration) {
        self.stream = stream
        self.core = core
        self.closeTimeout = closeTimeout
    }

    /// Writes the upgrade request and reads the answer, within `timeout`.
    static func handshake(_ handshake: WebSocketHandshake, on stream: CurlStream, timeout: Duration) throws(WebSocketError) -> WebSocketHandshake.Upgrade {
        let url = handshake.url
        let deadline = ContinuousClock.now + timeout
        let timedOut = WebSocketError.connect(.timedOut, url, "no answer to the upgrade request within \(CurlOutcome.describe(timeout)) (handshakeTimeout)")
        let request = handshake.request
        var written = 0
        while written < request.count {
            switch request.withUnsafeBytes({ stream.send(UnsafeRawBufferPointer(rebasing: $0[written...])) }) {
            case .bytes(let count): written += count
            case .wouldBlock: guard wait(for: stream.socket, events: POLLOUT, until: deadline) else { throw timedOut }
            case .ended, .failed: throw .connect(.connectionClosed, url, "the connection broke while the upgrade request was sent")
            }
        }
        var reader = WebSocketHandshakeReader(handshake: handshake)
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        // Ends by the deadline at the latest: the reader refuses a head over its cap, and every other turn waits.
        while true {
            guard ContinuousClock.now < deadline else { throw timedOut }
            switch buffer.withUnsafeMutableBytes({ stream.receive(into: $0) }) {
            case .bytes(let count):
                if case .upgraded(let upgrade) = try reader.read(buffer[..<count]) { return upgrade }
            case .wouldBlock:
                guard wait(for: stream.socket, events: POLLIN, until: deadline) else { throw timedOut }
            case .ended:
                throw .connect(.connectionClosed, url, "the server closed the connection without answering the upgrade request")
            case .failed(let code):
                throw .connect(.connectionClosed, url, "the connection broke during the upgrade (libcurl error \(code))")
            }
        }
    }

    /// Polls `socket` for `events` until `deadline`; false when the deadline came first.
    private static func wait(for socket: Int32, events: Int32, until deadline: ContinuousClock.Instant) -> Bool {
        // Bounded by the deadline: each turn sleeps at most until then.
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return false }
            var entry = pollfd(fd: socket, events: Int16(events), revents: 0)
            let ready = poll(&entry, 1, Int32(CurlEventLoop.milliseconds(left)))
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return true }
        }
    }

    /// Runs the open connection until it ends.
    private mutating func run(startingWith remainder: [UInt8]) -> Ending {
        if !remainder.isEmpty { absorb(remainder[...]) }
        // Ends by its deadlines at the latest: a close, once started, has `closeTimeout`.
        while true {
            if let ending = turn() { return ending }
        }
    }

    /// One turn: the ending, or nil to go on.
    private mutating func turn() -> Ending? {
        takeQueued()
        if let broken = flush() { return broken }
        if protocolOver == nil, !readingPaused(), let ending = drain() { return ending }
        if let protocolOver, written == output.count { return .done(protocolOver) }
        if let closeDeadline, ContinuousClock.now >= closeDeadline {
            if let protocolOver { return .broken("\(protocolOver); the last frames could not be written within \(CurlOutcome.describe(closeTimeout))") }
            return .broken("no close frame from the server within \(CurlOutcome.describe(closeTimeout)) of ours")
        }
        sleep()
        return nil
    }

    /// Moves what callers queued into the output; starts the close of an abandoned connection.
    private mutating func takeQueued() {
        let (queued, phase) = core.shared.withLock { shared in
            if shared.abandoned, shared.state.phase == .open, let bytes = try? shared.state.startClose(code: .goingAway) {
                shared.queued.append(.init(bytes: bytes, waiter: nil))
            }
            defer { shared.queued = [] }
            return (shared.queued, shared.state.phase)
        }
        for write in queued {
            output += write.bytes
            if let waiter = write.waiter { waiters.append((output.count, waiter)) }
        }
        if phase != .open, closeDeadline == nil { closeDeadline = .now + closeTimeout }
    }

    /// Writes what the socket takes; answers the writes that are complete.
    private mutating func flush() -> Ending? {
        // Bounded: every turn writes at least a byte, or stops.
        while written < output.count {
            let result = output.withUnsafeBytes { stream.send(UnsafeRawBufferPointer(rebasing: $0[written...])) }
            guard case .bytes(let count) = result else {
                if result == .wouldBlock { break }
                return .broken("the connection broke while writing (\(result))")
            }
            written += count
        }
        let done = waiters.prefix { $0.end <= written }
        waiters.removeFirst(done.count)
        for entry in done { entry.waiter.resume(returning: .success(())) }
        if written == output.count {
            output.removeAll(keepingCapacity: output.count <= 64 * 1024)
            written = 0
        }
        return nil
    }

    /// Reads until libcurl has nothing more (or ``chunksPerTurn``), feeding the protocol.
    private mutating func drain() -> Ending? {
        moreToRead = false
        // A local: the buffer is borrowed mutably while libcurl fills it.
        let stream = self.stream
        for _ in 0..<Self.chunksPerTurn {
            guard protocolOver == nil else { return nil }
            switch buffer.withUnsafeMutableBytes({ stream.receive(into: $0) }) {
            case .bytes(let count):
                absorb(buffer[..<count])
                // The read-ahead is checked after every chunk, not only once a turn: a turn reads up to
                // 64 chunks, which can hold tens of thousands of small messages.
                if core.shared.withLock({ $0.unread }) >= WebSocketConnectionCore.readAhead { return nil }
            case .wouldBlock:
                return nil
            case .ended:
                return .broken("the server closed the connection without a close frame")
            case .failed(let code):
                return .broken("the connection broke while reading (libcurl error \(code))")
            }
        }
        moreToRead = true
        return nil
    }

    /// Whether the reader is ``WebSocketConnectionCore/readAhead`` events behind: then the socket
    /// is not read (nor polled for input) until it has taken half of them, and wakes this thread.
    private mutating func readingPaused() -> Bool {
        // Closing, the server's close frame is awaited whatever the reader does.
        guard closeDeadline == nil else { return false }
        let paused = core.shared.withLock { shared in
            if shared.unread >= WebSocketConnectionCore.readAhead { shared.readingPaused = true }
            return shared.readingPaused
        }
        if paused { moreToRead = false }
        return paused
    }

    /// Feeds the protocol `bytes` from the server: its events go out, its replies into the output.
    private mutating func absorb(_ bytes: ArraySlice<UInt8>) {
        let (result, phase) = core.shared.withLock { shared in
            let result = shared.state.feed(bytes)
            // A handler takes them as they come: nothing is read ahead of it.
            if core.handler == nil { shared.unread += result.events.count }
            return (result, shared.state.phase)
        }
        output += result.outgoing
        for event in result.events {
            // A handler's replies go out in order with the protocol's own answers: before the echo of a close read later.
            output += core.deliver(event)
            switch event {
            case .closed(let code, let reason): protocolOver = "the server closed it with \(code)\(reason.isEmpty ? "" : " \(WebSocketError.quoted(reason))")"
            case .protocolError(let error): protocolOver = error.description
            default: break
            }
        }
        if phase == .closed || phase == .failed {
            protocolOver = protocolOver ?? "the close handshake is over"
            // The last frames (our close, or its echo) get the close's time to go out.
            if closeDeadline == nil { closeDeadline = .now + closeTimeout }
        }
    }

    /// Sleeps in `poll` until the socket is ready, a caller wakes the thread, or ``pollMilliseconds`` pass.
    private func sleep() {
        var wanted = written < output.count ? Int16(POLLOUT) : 0
        // Once the protocol is over nothing more is read: polling for input would not sleep. Nor
        // while the reader is behind: it wakes the thread through the pipe when it has caught up.
        if protocolOver == nil, closeDeadline != nil || !core.shared.withLock({ $0.readingPaused }) { wanted |= Int16(POLLIN) }
        var entries = [pollfd(fd: stream.socket, events: wanted, revents: 0), pollfd(fd: core.wakePipe.readEnd, events: Int16(POLLIN), revents: 0)]
        var timeout = moreToRead ? 0 : Self.pollMilliseconds
        if let closeDeadline { timeout = min(timeout, CurlEventLoop.milliseconds(max(.zero, closeDeadline - .now))) }
        _ = poll(&entries, nfds_t(entries.count), Int32(timeout))
        core.wakePipe.drain()
    }
}
