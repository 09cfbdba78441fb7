import Glibc

/// One client connection, owned by the ``EventLoop`` it was given to: only that loop's thread
/// reads it, writes it, changes it, and closes it (or hands it to a stream writer).
///
/// Requests are read as bytes arrive, each given a slot in arrival order; an answer made now
/// fills its slot at once, one made later (``ServeReply/later(_:)``) when the loop gets it back.
/// Answers are written strictly in slot order (pipelining), as much as the socket takes
/// without blocking; the rest waits for `EPOLLOUT`. At most ``maxPipelined`` requests wait
/// for their answers: past that, reading pauses until they are written.
final class ServeConnection {
    let descriptor: Int32
    /// Tells an answer for this connection from one for a later connection on the same number.
    let serial: UInt64

    /// A request read, and its answer once made.
    private struct Slot {
        let sequence: UInt64
        /// `nil` for a request refused before it could be read.
        let request: ServeRequest?
        let started: ContinuousClock.Instant
        var answer: ServeAnswer?
    }

    /// Bytes received and not yet read as a request.
    private var input: [UInt8] = []
    /// When the request being received sent its first byte (`nil` while none is under way).
    private var requestStarted: ContinuousClock.Instant?
    /// The last byte read or written: an idle connection is timed from here.
    private var lastActivity: ContinuousClock.Instant
    private var slots: [Slot] = []
    private var nextSequence: UInt64 = 0
    private var output = StreamOutput()
    /// No more requests are read: the client closed its side, a request was refused, an answer
    /// closes the connection, or the server is stopping.
    private var readingEnded = false
    private var peerClosed = false
    private var closeWhenWritten = false
    private var handOver: (any ServeEventSource)?
    /// What the loop's epoll set watches for now.
    var interest: EventPoll.Interest = .read

    /// Requests read ahead of their answers, at most.
    static let maxPipelined = 16

    init(descriptor: Int32, serial: UInt64, at now: ContinuousClock.Instant) {
        self.descriptor = descriptor
        self.serial = serial
        lastActivity = now
    }

    /// What becomes of the connection: kept, closed, or handed to a stream writer.
    enum Fate {
        case keep
        case close
        case stream(any ServeEventSource)
    }

    /// Reads what the socket has (into `scratch`, then the connection's input), and goes on.
    func readable(_ loop: EventLoop, scratch: inout [UInt8], at now: ContinuousClock.Instant) -> Fate {
        guard !readingEnded, !peerClosed else { return advance(loop, at: now) }
        let count = scratch.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if count > 0 {
            if input.isEmpty { requestStarted = now }
            input.append(contentsOf: scratch[..<count])
            lastActivity = now
        } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            // The client closed its side (or failed): what it sent whole is still answered.
            peerClosed = true
            input.removeAll()
            requestStarted = nil
        }
        return advance(loop, at: now)
    }

    /// The socket takes bytes again.
    func writable(_ loop: EventLoop, at now: ContinuousClock.Instant) -> Fate {
        advance(loop, at: now)
    }

    /// The answer of slot `sequence` came back from the cooperative pool.
    func answered(_ sequence: UInt64, with answer: ServeAnswer, _ loop: EventLoop, at now: ContinuousClock.Instant) -> Fate {
        if let index = slots.firstIndex(where: { $0.sequence == sequence }) { slots[index].answer = answer }
        return advance(loop, at: now)
    }

    /// Reads the requests it can, moves the answers ready (in order) to the output, and writes.
    func advance(_ loop: EventLoop, at now: ContinuousClock.Instant) -> Fate {
        // Bounded: each pass reads requests until `maxPipelined` wait, or writes answers; a third
        // pass only follows when the second freed slots for requests already received.
        for _ in 0..<8 {
            let read = readRequests(loop, at: now)
            let moved = moveAnswers(loop, at: now)
            guard read || moved, !input.isEmpty, slots.count < Self.maxPipelined, !readingEnded else { break }
        }
        if !output.isEmpty {
            switch output.send(descriptor) {
            case .failed: return .close
            case .sent: lastActivity = now
            case .wouldBlock: break
            }
        }
        if output.isEmpty {
            if let handOver { return .stream(handOver) }
            if closeWhenWritten || (peerClosed && slots.isEmpty) { return .close }
        }
        return .keep
    }

    /// What the epoll set should watch for, given the state.
    var wantedInterest: EventPoll.Interest {
        var wanted: EventPoll.Interest = []
        if !readingEnded, !peerClosed, slots.count < Self.maxPipelined { wanted.insert(.read) }
        if !output.isEmpty { wanted.insert(.write) }
        return wanted
    }

    /// Parses requests out of the input and asks the handler; true when at least one was read.
    private func readRequests(_ loop: EventLoop, at now: ContinuousClock.Instant) -> Bool {
        var read = false
        while !readingEnded, slots.count < Self.maxPipelined, !input.isEmpty {
            switch ServeRequestParser.parse(input[...]) {
            case .incomplete:
                return read
            case .request(var request, let consumed):
                input.removeFirst(consumed)
                let started = requestStarted ?? now
                request.received = started
                requestStarted = input.isEmpty ? nil : now
                let sequence = nextSequence
                nextSequence += 1
                slots.append(Slot(sequence: sequence, request: request, started: started))
                switch loop.handler(request) {
                case .now(let answer): slots[slots.count - 1].answer = answer
                case .later(let work): loop.schedule(work, connection: self, sequence: sequence)
                }
                read = true
            case .refused(let status, let message):
                let started = requestStarted ?? now
                loop.finished(nil, "invalid", status, Socket.milliseconds(from: started, to: now))
                slots.append(Slot(sequence: nextSequence, request: nil, started: started,
                                  answer: .response(.error(status, message), route: "invalid")))
                nextSequence += 1
                endReading()
                return true
            }
        }
        return read
    }

    /// Moves the answers at the head of the slots, in order, to the output; true when one moved.
    private func moveAnswers(_ loop: EventLoop, at now: ContinuousClock.Instant) -> Bool {
        var moved = false
        while let first = slots.first, let answer = first.answer {
            slots.removeFirst()
            moved = true
            switch answer {
            case .response(let response, _):
                guard let request = first.request else {
                    output.append(response.serialized(keepAlive: false))
                    finish()
                    continue
                }
                let keepAlive = request.keepAlive && !loop.isStopping
                output.append(response.serialized(keepAlive: keepAlive, includeBody: request.method != "HEAD"))
                if !keepAlive { finish() }
            case .stream(let source):
                handOver = source
                finish()
            }
        }
        return moved
    }

    /// No request after this one: what is written is the last, then the connection closes (or becomes a stream).
    private func finish() {
        endReading()
        closeWhenWritten = true
        slots.removeAll()
    }

    private func endReading() {
        readingEnded = true
        input.removeAll()
        requestStarted = nil
    }

    /// The timeouts, and the server stopping, at `now`.
    func check(_ loop: EventLoop, at now: ContinuousClock.Instant) -> Fate {
        let limits = loop.limits
        if !output.isEmpty {
            // A client that takes nothing of its answer for this long is let go.
            return now - lastActivity >= .milliseconds(limits.sendTimeoutMilliseconds) ? .close : .keep
        }
        if loop.isStopping {
            // Waiting for a request (or part way through one): closed now; an answer being made is still written.
            guard !slots.isEmpty else { return .close }
            readingEnded = true
            return .keep
        }
        guard slots.isEmpty else { return .keep }
        if let requestStarted {
            guard now - requestStarted >= .milliseconds(limits.headerTimeoutMilliseconds) else { return .keep }
            // Part of a request and then nothing (slowloris): say so, and close.
            loop.finished(nil, "invalid", 408, Socket.milliseconds(from: requestStarted, to: now))
            output.append(ServeResponse.error(408, "the request did not arrive in time").serialized(keepAlive: false))
            endReading()
            closeWhenWritten = true
            return advance(loop, at: now)
        }
        // Idle: closed quietly.
        return now - lastActivity >= .milliseconds(limits.idleTimeoutMilliseconds) ? .close : .keep
    }
}
