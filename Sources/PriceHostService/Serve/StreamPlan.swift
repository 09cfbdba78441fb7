import Glibc

/// An accepted `GET /v1/stream`: the topics to follow; ``run(on:server:)`` takes the connection over.
package struct StreamPlan: Sendable {
    let topics: [StreamHub.TopicKey]
    /// The client's `Last-Event-ID`: it gets what it missed first.
    var lastEventID: String?
    package let hub: StreamHub
    package let metrics: ServeMetrics

    /// Writes the head, subscribes, and hands the stream to one of `server`'s writers, which
    /// writes each event as it comes and a comment heartbeat after `heartbeat` of silence, until
    /// the client leaves or the server stops, and then closes the connection (``StreamWriter``).
    /// - Returns: true when a writer took the connection over; false when the caller still owns it
    ///   (the client left first, the server is stopping, or no writer could start).
    package func start(on descriptor: Int32, server: ServeServer) -> Bool {
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
            + "X-Accel-Buffering: no\r\nConnection: close\r\n\r\n"
        guard Socket.sendAll(descriptor, Array(head.utf8)), let writer = server.streamWriter(for: descriptor) else { return false }
        // A fixed kernel buffer per stream (no autotuning to megabytes): a client that stops
        // reading costs at most this, and falls behind in its inbox soon enough to be seen.
        Socket.setSendBuffer(descriptor, bytes: Self.socketBuffer)
        // An event is one write: it goes out at once, never held behind the previous one's acknowledgement.
        Socket.setNoDelay(descriptor)
        let subscriber = StreamHub.Subscriber { writer.ready(descriptor) }
        metrics.streamClients(1)
        let stream = StreamWriter.Stream(descriptor: descriptor, subscriber: subscriber, topics: topics, hub: hub, metrics: metrics)
        func unsubscribe() {
            for topic in topics { hub.unsubscribe(subscriber, from: topic) }
            metrics.streamClients(-1)
        }
        for topic in topics where !hub.subscribe(subscriber, to: topic, after: lastEventID) {
            unsubscribe()
            return false
        }
        guard writer.add(stream) else {
            unsubscribe()
            return false
        }
        return true
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
            // Its storage is kept from one event to the next: a stream's buffer grows to its largest batch, once.
            bytes.removeAll(keepingCapacity: true)
            written = 0
        }
        bytes += text.utf8
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
