import ConcurrencyHelpers
import Glibc
import PriceHostCore

/// Writes SSE streams: one thread writes every stream handed to it, from one `poll`.
///
/// A connection's event loop hands the descriptor over (``ServeServer/startStream(on:source:head:)``,
/// then ``add(_:)``) with the SSE head as the stream's first output, and the stream's
/// ``ServeEventSource`` subscribed. From then on an event costs its stream one queued string and,
/// for a writer that is asleep, one byte down a pipe: no thread per client to wake, so
/// an event reaches a thousand clients in one pass of `send`s.
///
/// Writes never block: what a socket does not take waits in the stream's output, the
/// writer asks `poll` for `POLLOUT` on it, and its inbox is not read again until the
/// output has gone. A client that reads too slowly therefore falls behind in its inbox,
/// which then keeps only the latest event of each pair; one that stays behind too long is sent
/// its subscription's last words (``ServeEventSubscription/lastWords(at:)``) and disconnected.
/// Other streams never wait for it.
final class StreamWriter: Sendable {
    /// A stream handed over: its socket, its subscription, and what it has yet to write.
    struct Stream: Sendable {
        let descriptor: Int32
        let subscription: any ServeEventSubscription
        var output = StreamOutput()
        var lastWrite = ContinuousClock.now
        /// Set once it was cut off for staying behind: its last word goes out until then, then it closes.
        var closingBy: ContinuousClock.Instant?
    }

    /// What other threads hand the writer.
    private struct Handed {
        var arrivals: [Stream] = []
        /// Streams whose inbox got events while the writer was not looking.
        var ready: [Int32] = []
        /// The pipe was written since the writer last looked: no need to write it again.
        var signaled = false
        /// The writer's thread runs (it ends when the server stops and its last stream is gone).
        var running = false
    }

    private let handed = Lock(Handed())
    private let wake: WakePipe
    private let heartbeat: Duration
    private let isStopping: @Sendable () -> Bool
    /// Closes a stream's connection (and forgets it among the server's open ones).
    private let release: @Sendable (Int32) -> Void

    /// How often the writer looks at every stream for a heartbeat due, a lag too long, or the server stopping.
    static let scanMilliseconds = 50.0

    /// `nil` when no pipe can be made (out of descriptors).
    init?(heartbeatMilliseconds: Int, isStopping: @escaping @Sendable () -> Bool, release: @escaping @Sendable (Int32) -> Void) {
        guard let wake = WakePipe() else { return nil }
        self.wake = wake
        heartbeat = .milliseconds(heartbeatMilliseconds)
        self.isStopping = isStopping
        self.release = release
    }

    /// Takes `stream` over: the writer writes it, and closes it when it ends. False when the
    /// writer's thread cannot be started; the caller still owns the stream then.
    func add(_ stream: Stream) -> Bool {
        let start = handed.withLock { handed in
            handed.arrivals.append(stream)
            defer { handed.running = true }
            return !handed.running
        }
        if start {
            guard DetachedThread.start(stackBytes: 256 * 1024, { [self] in run() }) else {
                // No thread: every stream handed over meanwhile (others' too, which saw `running`
                // and left) is ended here; the caller's goes back to it.
                let stranded = handed.withLock { handed in
                    handed.running = false
                    defer { handed.arrivals = [] }
                    return handed.arrivals
                }
                for other in stranded where other.descriptor != stream.descriptor { end(other) }
                return false
            }
        }
        signal()
        return true
    }

    /// Events are waiting in the inbox of the stream on `descriptor`.
    func ready(_ descriptor: Int32) {
        let write = handed.withLock { handed in
            handed.ready.append(descriptor)
            defer { handed.signaled = true }
            return !handed.signaled
        }
        if write { wake.wake() }
    }

    private func signal() {
        if handed.withLock({ handed in defer { handed.signaled = true }; return !handed.signaled }) { wake.wake() }
    }

    /// A stream on the writer's thread: a reference, so that writing to it mutates its output in place
    /// (a copy taken out of a dictionary and put back would copy the output's bytes on every write).
    private final class Slot {
        var stream: Stream
        init(_ stream: Stream) { self.stream = stream }
    }

    private func run() {
        var streams: [Int32: Slot] = [:]
        var polls: [pollfd] = []
        var scratch = [UInt8](repeating: 0, count: 1024)
        var lastScan = ContinuousClock.now
        // Ends when the server is stopping and the writer has no stream left (`done` below).
        while true {
            polls.removeAll(keepingCapacity: true)
            polls.append(pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0))
            for slot in streams.values {
                let events = slot.stream.output.isEmpty ? POLLIN : POLLIN | POLLOUT
                polls.append(pollfd(fd: slot.stream.descriptor, events: Int16(events), revents: 0))
            }
            // Idle, a second at a time (to notice the server stopping); with streams, until the next scan.
            let timeout = streams.isEmpty ? 1000 : Int32(max(0, Self.scanMilliseconds - Socket.milliseconds(since: lastScan))) + 1
            let count = poll(&polls, nfds_t(polls.count), timeout)
            if count < 0, errno != EINTR { usleep(1000) }

            if polls[0].revents != 0 { wake.drain() }
            let (arrivals, ready, done) = handed.withLock { handed in
                handed.signaled = false
                defer {
                    handed.arrivals.removeAll(keepingCapacity: true)
                    handed.ready.removeAll(keepingCapacity: true)
                }
                let done = streams.isEmpty && handed.arrivals.isEmpty && isStopping()
                if done { handed.running = false }
                return (handed.arrivals, handed.ready, done)
            }
            if done { return }

            // The sockets first: a client that left is let go before anything is written to it.
            if count > 0 {
                for entry in polls.dropFirst() where entry.revents != 0 {
                    guard let slot = streams[entry.fd] else { continue }
                    if entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                        // The client sends nothing on a stream: readable means it left (or the server is stopping).
                        let received = scratch.withUnsafeMutableBytes { recv(entry.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                        if received == 0 || (received < 0 && errno != EAGAIN && errno != EINTR) {
                            end(&streams, entry.fd)
                            continue
                        }
                    }
                    if entry.revents & Int16(POLLOUT) != 0, !pump(&slot.stream) { end(&streams, entry.fd) }
                }
            }
            for stream in arrivals {
                streams[stream.descriptor] = Slot(stream)
                service(&streams, stream.descriptor)
            }
            for descriptor in ready { service(&streams, descriptor) }

            let now = ContinuousClock.now
            if Socket.milliseconds(since: lastScan) >= Self.scanMilliseconds {
                lastScan = now
                scan(&streams, at: now)
            }
        }
    }

    /// Writes what the stream on `descriptor` has waiting; ends it if its client is gone.
    private func service(_ streams: inout [Int32: Slot], _ descriptor: Int32) {
        guard let slot = streams[descriptor] else { return }
        if !pump(&slot.stream) { end(&streams, descriptor) }
    }

    /// Moves the inbox into the output whenever the output is empty, and sends what the socket
    /// takes now. False when the stream is over: its client is gone, or it was cut off and its
    /// last word is out. (Its inbox tells the writer again only once it has been taken, so an
    /// output that empties is followed by a take here.)
    private func pump(_ stream: inout Stream) -> Bool {
        // Bounded: each pass either empties the output and takes the inbox again, or stops.
        for _ in 0..<4 {
            if stream.output.isEmpty, stream.closingBy == nil {
                for event in stream.subscription.take() { stream.output.append(event) }
            }
            guard !stream.output.isEmpty else { break }
            switch stream.output.send(stream.descriptor) {
            case .failed: return false
            case .sent: stream.lastWrite = .now
            case .wouldBlock: break
            }
            guard stream.output.isEmpty else { break }
        }
        if let closingBy = stream.closingBy, stream.output.isEmpty || ContinuousClock.now >= closingBy { return false }
        return true
    }

    /// Every stream: ended when the server stops; cut off when behind too long; a heartbeat after a silence.
    private func scan(_ streams: inout [Int32: Slot], at now: ContinuousClock.Instant) {
        let stopping = isStopping()
        for (descriptor, slot) in streams {
            if stopping {
                end(&streams, descriptor)
                continue
            }
            if slot.stream.closingBy == nil, let lastWords = slot.stream.subscription.lastWords(at: now) {
                // The event it is in the middle of, then the last word, as fast as it reads, for a
                // few seconds at most. What it has not started is dropped: a reconnect with
                // `Last-Event-ID` gets it from the topic's history.
                slot.stream.output.dropUnstartedEvents()
                slot.stream.output.append(lastWords)
                slot.stream.closingBy = now + .seconds(5)
                if !pump(&slot.stream) { end(&streams, descriptor) }
            } else if slot.stream.closingBy != nil || (slot.stream.output.isEmpty && slot.stream.lastWrite + heartbeat <= now) {
                if slot.stream.closingBy == nil { slot.stream.output.append(": heartbeat\n\n") }
                if !pump(&slot.stream) { end(&streams, descriptor) }
            }
        }
    }

    /// Unsubscribes the stream on `descriptor` and closes its connection.
    private func end(_ streams: inout [Int32: Slot], _ descriptor: Int32) {
        guard let stream = streams.removeValue(forKey: descriptor)?.stream else { return }
        end(stream)
    }

    private func end(_ stream: Stream) {
        stream.subscription.cancel()
        release(stream.descriptor)
    }

    /// The kernel's send buffer for a stream.
    static let socketBuffer = 32 * 1024
}
