import Glibc

/// An accepted `GET /v1/stream`: the topics to follow; ``run(on:server:)`` takes the connection over.
package struct StreamPlan: Sendable {
    let topics: [StreamHub.TopicKey]
    /// The client's `Last-Event-ID`: it gets what it missed first.
    var lastEventID: String?
    package let hub: StreamHub
    package let metrics: ServeMetrics

    /// Writes the head, then each event as it comes and a comment heartbeat after
    /// `heartbeat` of silence, until the client leaves or the server stops.
    ///
    /// Writes never block: what the socket does not take waits in `output`, and the
    /// inbox is not read again until it has gone out. A client that reads too slowly
    /// therefore falls behind in its inbox, which then keeps only the latest event of
    /// each pair; one that stays behind for ``StreamHub/Subscriber/maxLag`` is sent a
    /// final `event: error` and disconnected. Other clients, on threads of their own
    /// with inboxes of their own, never wait for it.
    package func run(on descriptor: Int32, server: ServeServer) {
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
            + "X-Accel-Buffering: no\r\nConnection: close\r\n\r\n"
        guard Socket.sendAll(descriptor, Array(head.utf8)), let subscriber = StreamHub.Subscriber() else { return }
        // A fixed kernel buffer per stream (no autotuning to megabytes): a client that stops
        // reading costs at most this, and falls behind in its inbox soon enough to be seen.
        Socket.setSendBuffer(descriptor, bytes: Self.socketBuffer)
        metrics.streamClients(1)
        defer {
            for topic in topics { hub.unsubscribe(subscriber, from: topic) }
            metrics.streamClients(-1)
        }
        for topic in topics where !hub.subscribe(subscriber, to: topic, after: lastEventID) { return }
        let heartbeat = server.limits.heartbeatMilliseconds
        var lastWrite = ContinuousClock.now
        var output = StreamOutput()
        var scratch = [UInt8](repeating: 0, count: 4096)
        while !server.isStopping {
            if let since = subscriber.behindSince, since.duration(to: .now) >= StreamHub.Subscriber.maxLag {
                // The event it is in the middle of, then the last word, as fast as it reads, for a
                // few seconds at most. What it has not started is dropped: a reconnect with
                // `Last-Event-ID` gets it from the topic's history.
                output.dropUnstartedEvents()
                output.append(Self.tooFarBehind)
                output.flush(descriptor, within: .seconds(5))
                return
            }
            let waited = Int(Socket.milliseconds(since: lastWrite))
            // While output waits for the socket, look again often, to notice a lag that has lasted too long.
            let limit = output.isEmpty ? heartbeat - waited : 100
            let (readable, writable) = Socket.wait(readable: output.isEmpty ? [descriptor, subscriber.wakeDescriptor] : [descriptor],
                                                   writable: output.isEmpty ? nil : descriptor, milliseconds: limit)
            if readable.contains(descriptor) {
                // The client sends nothing on a stream: readable means it left (or the server is stopping).
                guard Socket.receive(descriptor, into: &scratch) > 0 else { return }
            }
            if readable.contains(subscriber.wakeDescriptor) {
                output.append(subscriber.take().joined())
            } else if output.isEmpty, readable.isEmpty, !writable {
                output.append(": heartbeat\n\n")
            }
            if !output.isEmpty {
                switch output.send(descriptor) {
                case .failed: return
                case .sent: lastWrite = .now
                case .wouldBlock: break
                }
            }
        }
    }

    /// The kernel's send buffer for a stream.
    static let socketBuffer = 32 * 1024

    /// The last event of a client cut off for staying behind; no `id:`, so its
    /// `Last-Event-ID` stays the last event it got, and a reconnect gets what it missed.
    static let tooFarBehind = "event: error\ndata: {\"error\":\"this client fell behind the stream for \(StreamHub.Subscriber.maxLag.components.seconds) s and is disconnected; reconnect with Last-Event-ID to get what it missed\"}\n\n"
}

/// What a stream has yet to write to its socket.
struct StreamOutput {
    private var bytes: [UInt8] = []
    private var written = 0

    var isEmpty: Bool { written == bytes.count }

    mutating func append(_ text: String) {
        if isEmpty {
            bytes = Array(text.utf8)
            written = 0
        } else {
            bytes += text.utf8
        }
    }

    /// Keeps only the rest of the event being written, if one is half written (events end with a blank line).
    mutating func dropUnstartedEvents() {
        guard !isEmpty else { return }
        let atBoundary = written == 0 || (written >= 2 && bytes[written - 2] == 0x0A && bytes[written - 1] == 0x0A)
        var end = written
        if !atBoundary {
            while end < bytes.count, !(end >= 1 && bytes[end - 1] == 0x0A && bytes[end] == 0x0A) { end += 1 }
            end = min(end + 1, bytes.count)
        }
        bytes.removeSubrange(end...)
    }

    enum Progress { case sent, wouldBlock, failed }

    /// Writes what the socket takes now, without waiting.
    mutating func send(_ descriptor: Int32) -> Progress {
        var progressed = false
        while !isEmpty {
            let sent = bytes.withUnsafeBytes { buffer in
                Glibc.send(descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if sent < 0, errno == EINTR { continue }
            if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK { return progressed ? .sent : .wouldBlock }
            if sent <= 0 { return .failed }
            written += sent
            progressed = true
        }
        return .sent
    }

    /// Writes the rest, waiting for the socket at most `limit` in all.
    mutating func flush(_ descriptor: Int32, within limit: Duration) {
        let deadline = ContinuousClock.now + limit
        while !isEmpty, ContinuousClock.now < deadline {
            guard send(descriptor) != .failed else { return }
            _ = Socket.wait(readable: [], writable: descriptor, milliseconds: 100)
        }
    }
}
