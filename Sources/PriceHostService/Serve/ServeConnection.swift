import Glibc

/// One client connection, on its own thread: reads requests, answers each in turn
/// (pipelined requests in order), keeps the connection open while both sides want it.
struct ServeConnection {
    let descriptor: Int32
    package let server: ServeServer
    package let handler: ServeServer.Handler
    package let finished: @Sendable (ServeRequest?, String, Int, Double) -> Void

    package func run() {
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
                guard answer(request, started: started) else { return }
            case .refused(let status, let message):
                finished(nil, "invalid", status, Socket.milliseconds(since: requestStarted ?? .now))
                _ = Socket.sendAll(descriptor, ServeResponse.error(status, message).serialized(keepAlive: false))
                return
            case .incomplete:
                if pending.isEmpty, server.isStopping { return }
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
                    return
                }
                let count = Socket.receive(descriptor, into: &chunk)
                guard count > 0 else { return }
                if pending.isEmpty { requestStarted = .now }
                pending += chunk[..<count]
            }
        }
    }

    /// Answers `request`; false when the connection must close after it.
    private func answer(_ request: ServeRequest, started: ContinuousClock.Instant) -> Bool {
        switch handler(request) {
        case .response(let response, let route):
            let keepAlive = request.keepAlive && !server.isStopping
            // Counted before it is sent: a client that reads /metrics next must see this request.
            finished(request, route, response.status, Socket.milliseconds(since: started))
            return Socket.sendAll(descriptor, response.serialized(keepAlive: keepAlive, includeBody: request.method != "HEAD")) && keepAlive
        case .stream(let plan):
            finished(request, "stream", 200, Socket.milliseconds(since: started))
            plan.run(on: descriptor, server: server)
            return false
        }
    }
}
