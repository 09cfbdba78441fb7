import Glibc

/// An accepted `GET /v1/stream`: the topics to follow; ``run(on:server:)`` takes the connection over.
package struct StreamPlan: Sendable {
    let topics: [StreamHub.TopicKey]
    /// The client's `Last-Event-ID`: it gets what it missed first.
    var lastEventID: String?
    package let hub: StreamHub
    package let metrics: ServeMetrics

    /// Writes the head, then each event as it comes and a comment heartbeat after
    /// `heartbeat` of silence, until the client leaves, falls too far behind, or the server stops.
    package func run(on descriptor: Int32, server: ServeServer) {
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
            + "X-Accel-Buffering: no\r\nConnection: close\r\n\r\n"
        guard Socket.sendAll(descriptor, Array(head.utf8)), let subscriber = StreamHub.Subscriber() else { return }
        metrics.streamClients(1)
        defer {
            for topic in topics { hub.unsubscribe(subscriber, from: topic) }
            metrics.streamClients(-1)
        }
        for topic in topics where !hub.subscribe(subscriber, to: topic, after: lastEventID) { return }
        let heartbeat = server.limits.heartbeatMilliseconds
        var lastWrite = ContinuousClock.now
        var scratch = [UInt8](repeating: 0, count: 4096)
        while !server.isStopping {
            let waited = Int(Socket.milliseconds(since: lastWrite))
            let ready = Socket.waitReadable([descriptor, subscriber.wakeDescriptor], milliseconds: heartbeat - waited)
            if ready.contains(descriptor) {
                // The client sends nothing on a stream: readable means it left (or the server is stopping).
                guard Socket.receive(descriptor, into: &scratch) > 0 else { return }
            }
            if ready.contains(subscriber.wakeDescriptor) {
                let (events, overflowed) = subscriber.take()
                guard !overflowed else { return }
                if !events.isEmpty {
                    guard Socket.sendAll(descriptor, Array(events.joined().utf8)) else { return }
                    lastWrite = .now
                }
            } else if ready.isEmpty {
                guard Socket.sendAll(descriptor, Array(": heartbeat\n\n".utf8)) else { return }
                lastWrite = .now
            }
        }
    }
}
