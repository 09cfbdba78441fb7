import PriceHostCore

/// Something done around every route's handler: it gets the request, the route it was routed
/// to, the generation the handler answers with, and the rest of the chain, which it calls (or
/// not: the token check answers 401 itself).
package protocol ServeMiddleware: Sendable {
    func answer(_ request: ServeRequest, for route: ServeRoute, in generation: ServeGeneration,
                next: @Sendable (ServeRequest) -> ServeReply) -> ServeReply
}

/// `serve.token` of the generation answering (a reload may set, change or drop it): every route
/// that needs it gets 401, with `WWW-Authenticate`, without `Authorization: Bearer TOKEN`,
/// compared in constant time.
package struct TokenCheck: ServeMiddleware {
    package func answer(_ request: ServeRequest, for route: ServeRoute, in generation: ServeGeneration,
                        next: @Sendable (ServeRequest) -> ServeReply) -> ServeReply {
        guard route.needsToken, let token = generation.config.serve.token,
              !Self.authorizes(request.header("authorization"), token: token) else { return next(request) }
        return .response(.error(401, "missing or wrong bearer token (send Authorization: Bearer TOKEN)",
                                headers: [("WWW-Authenticate", "Bearer")]), route: route.name)
    }

    /// Whether `header` is `Bearer TOKEN`, compared in constant time: the time depends
    /// only on the length of what the client sent, never on where the first difference is.
    static func authorizes(_ header: String?, token: String) -> Bool {
        guard let header, header.hasPrefix("Bearer "), !token.isEmpty else { return false }
        let given = Array(header.utf8.dropFirst(7))
        let expected = Array(token.utf8)
        var difference = UInt8(given.count == expected.count ? 0 : 1)
        for index in given.indices {
            difference |= given[index] ^ expected[index % expected.count]
        }
        return difference == 0
    }
}

/// The request metrics (`pricehost_http_requests_total{route,status}`) and the access log
/// (`GET /v1/prices 200 0.4 ms` at info), for each answer once it is made: now, or when the
/// work of a later one ends. Counted before the answer is sent: a client that reads `/metrics`
/// next sees its own request. The time is from the request's first byte.
package struct RequestLog: ServeMiddleware {
    let metrics: ServeMetrics
    let diagnostics: Diagnostics

    package init(metrics: ServeMetrics, diagnostics: Diagnostics) {
        self.metrics = metrics
        self.diagnostics = diagnostics
    }

    package func answer(_ request: ServeRequest, for route: ServeRoute, in generation: ServeGeneration,
                        next: @Sendable (ServeRequest) -> ServeReply) -> ServeReply {
        switch next(request) {
        case .now(let answer):
            record(answer, request)
            return .now(answer)
        case .later(let work):
            return .later {
                let answer = await work()
                record(answer, request)
                return answer
            }
        }
    }

    private func record(_ answer: ServeAnswer, _ request: ServeRequest) {
        switch answer {
        case .response(let response, let route): record(request, route: route, status: response.status, milliseconds: Socket.milliseconds(since: request.received))
        case .stream: record(request, route: "stream", status: 200, milliseconds: Socket.milliseconds(since: request.received))
        }
    }

    /// One exchange: a routed request's answer, or (`request` nil) one the transport refused before
    /// it could be read (`invalid`, `overload`).
    package func record(_ request: ServeRequest?, route: String, status: Int, milliseconds: Double) {
        metrics.request(route: route, status: status)
        guard diagnostics.isLogging(.info) else { return }
        let tenths = Int((milliseconds * 10).rounded())
        diagnostics.log(.info, "\(request?.method ?? "-") \(request?.path ?? "-") \(status) \(tenths / 10).\(tenths % 10) ms")
    }
}
