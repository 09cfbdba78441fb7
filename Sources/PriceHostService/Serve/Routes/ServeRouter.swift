import ProviderABI

/// Decides what each request gets: the route (``table``), the middleware around its handler
/// (the access log and request metrics, then the token check), and 404 and 405.
package struct ServeRouter: Sendable {
    package let state: ServeState
    package let metrics: ServeMetrics
    package let hub: StreamHub
    /// The connections open now, for `/metrics`.
    package let openConnections: @Sendable () -> Int
    /// Around every handler, outermost first.
    let middleware: [any ServeMiddleware]

    /// - Parameter log: the access log and request metrics; without it, no answer is counted (tests).
    package init(state: ServeState, metrics: ServeMetrics, hub: StreamHub, log: RequestLog? = nil,
                 openConnections: @escaping @Sendable () -> Int) {
        self.state = state
        self.metrics = metrics
        self.hub = hub
        self.openConnections = openConnections
        middleware = (log.map { [$0] } ?? []) + [TokenCheck()]
    }

    /// The answer to `request`.
    package func answer(_ request: ServeRequest) -> ServeReply {
        let generation = state.current
        let onPath = Self.routes(on: request.path)
        let route = if onPath.isEmpty {
            Self.notFound
        } else {
            onPath.first { $0.methods.contains(request.method) } ?? Self.notAllowed(on: onPath)
        }
        let handler: @Sendable (ServeRequest) -> ServeReply = { [self] request in route.handler(self, request, generation) }
        let chain = middleware.reversed().reduce(handler) { next, layer in
            { request in layer.answer(request, for: route, in: generation, next: next) }
        }
        return chain(request)
    }

    /// `GET /metrics`: Prometheus text.
    func metricsText(_ generation: ServeGeneration) -> ServeResponse {
        let plugins = generation.catalog.report.plugins.map { (provider: $0.name, version: $0.version) }
        let text = metrics.exposition(plugins: plugins, rateLimitWaits: state.rateLimitWaits, openConnections: openConnections(),
                                      redis: generation.fleet?.client.health) + (generation.feeds?.metricsText() ?? "")
        return .text(200, text, contentType: "text/plain; version=0.0.4; charset=utf-8")
    }

    /// `GET /readyz`: 200 when every configured plugin loaded, with the fleet's and the quote store's state
    /// (`"degraded"` when either works badly: prices are still served); 503 with the problems.
    static func readiness(_ generation: ServeGeneration, store: ServeStore = .off) -> ServeResponse {
        let problems = generation.problems
        guard problems.isEmpty else {
            return .json(503, JSONValue.object(JSONObject([
                ("status", .string("not ready")), ("problems", .array(problems.map(JSONValue.string))),
            ])).serialized)
        }
        var members: [(String, JSONValue)] = [("status", .string("ready")), ("plugins", .number(String(generation.catalog.report.plugins.count)))]
        if let fleet = generation.fleet {
            // Still 200 when Redis is down: the instance answers, alone; "degraded" says so.
            let readiness = fleet.readiness
            if !readiness.isUp { members[0].1 = .string("degraded") }
            members.append(("shared", .string(readiness.description)))
        }
        let stored = store.readiness
        if stored.degraded { members[0].1 = .string("degraded") }
        members.append(("store", .string(stored.text)))
        return .json(200, JSONValue.object(JSONObject(members)).serialized)
    }
}
