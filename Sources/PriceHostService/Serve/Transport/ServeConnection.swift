import Glibc

/// One client connection, on its own thread: reads requests, answers each in turn
/// (pipelined requests in order), keeps the connection open while both sides want it.
/// A stream (`/v1/stream`) is handed to a ``StreamWriter``, and the thread ends.
struct ServeConnection {
    let descriptor: Int32
    package let server: ServeServer
    package let handler: ServeServer.Handler
    package let finished: @Sendable (ServeRequest?, String, Int, Double) -> Void

    /// Serves the connection until it ends.
    /// - Returns: true when the connection was handed over (a stream's writer closes it), false when the caller closes it.
    package func run() -> Bool {
        Socket.setSendTimeout(descriptor, milliseconds: 10_000)
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        // When the current request's first byte arrived (`nil` while idle between requests).
        var requestStarted: ContinuousClock.Instant?
        while true {
            switch ServeRequestParser.parse(pending[...]) {
            case .request(let request, let consumed):
                pending.removeFirst(consumed)
                let started = requestStarted ?? .now
                requestStarted = pending.isEmpty ? nil : .now
                switch answer(request, started: started) {
                case .keepOpen: continue
                case .close: return false
                case .handedOver: return true
                }
            case .refused(let status, let message):
                finished(nil, "invalid", status, Socket.milliseconds(since: requestStarted ?? .now))
                _ = Socket.sendAll(descriptor, ServeResponse.error(status, message).serialized(keepAlive: false))
                return false
            case .incomplete:
                if pending.isEmpty, server.isStopping { return false }
                let limit: Int
                if let requestStarted {
                    limit = server.limits.headerTimeoutMilliseconds - Int(Socket.milliseconds(since: requestStarted))
                } else {
                    limit = server.limits.idleTimeoutMilliseconds
                }
                if limit <= 0 || Socket.waitReadable([descriptor], milliseconds: limit).isEmpty {
                    // Idle: close quietly. Part of a request and then nothing (slowloris): say so.
                    if let requestStarted {
                        finished(nil, "invalid", 408, Socket.milliseconds(since: requestStarted))
                        _ = Socket.sendAll(descriptor, ServeResponse.error(408, "the request did not arrive in time").serialized(keepAlive: false))
                    }
                    return false
                }
                let count = Socket.receive(descriptor, into: &chunk)
                guard count > 0 else { return false }
                if pending.isEmpty { requestStarted = .now }
                pending += chunk[..<count]
            }
        }
    }

    /// What becomes of the connection after an answer: read the next request, close it, or
    /// nothing (a stream's writer owns it now).
    private enum Next { case keepOpen, close, handedOver }

    /// Answers `request`, and says what becomes of the connection.
    private func answer(_ request: ServeRequest, started: ContinuousClock.Instant) -> Next {
        switch handler(request) {
        case .response(let response, let route):
            let keepAlive = request.keepAlive && !server.isStopping
            // Counted before it is sent: a client that reads /metrics next must see this request.
            finished(request, route, response.status, Socket.milliseconds(since: started))
            let sent = Socket.sendAll(descriptor, response.serialized(keepAlive: keepAlive, includeBody: request.method != "HEAD"))
            return sent && keepAlive ? .keepOpen : .close
        case .stream(let plan):
            finished(request, "stream", 200, Socket.milliseconds(since: started))
            return plan.start(on: descriptor, server: server) ? .handedOver : .close
        }
    }
}
