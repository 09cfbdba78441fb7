import ProviderABI

/// Decides what each request gets: the token check, the routes, the methods.
///
/// | route | methods | |
/// | --- | --- | --- |
/// | `/v1/prices` | GET, HEAD | quotes as a JSON array |
/// | `/v1/stream` | GET | Server-Sent Events |
/// | `/v1/history` | GET, HEAD | one pair's quotes of the last minutes (at most 60), as JSON |
/// | `/v1/board` | GET, HEAD | what the board shows, from the config (JSON) |
/// | `/` | GET, HEAD | the board: an HTML page (no token needed: it holds no data) |
/// | `/` | POST | a Chainlink external adapter |
/// | `/metrics` | GET, HEAD | Prometheus text |
/// | `/healthz` | GET, HEAD | the process is up (no token needed) |
/// | `/readyz` | GET, HEAD | the config is valid and every configured plugin loaded |
package struct ServeRouter: Sendable {
    package let state: ServeState
    package let metrics: ServeMetrics
    package let hub: StreamHub
    /// The connections open now, for `/metrics`.
    package let openConnections: @Sendable () -> Int

    package init(state: ServeState, metrics: ServeMetrics, hub: StreamHub, openConnections: @escaping @Sendable () -> Int) {
        self.state = state
        self.metrics = metrics
        self.hub = hub
        self.openConnections = openConnections
    }

    /// The answer to `request`.
    package func answer(_ request: ServeRequest) -> ServeReply {
        let generation = state.current
        let (route, allowed): (String, [String])
        switch request.path {
        case "/v1/prices": (route, allowed) = ("prices", ["GET", "HEAD"])
        case "/v1/stream": (route, allowed) = ("stream", ["GET"])
        case "/v1/history": (route, allowed) = ("history", ["GET", "HEAD"])
        case "/v1/board": (route, allowed) = ("board-config", ["GET", "HEAD"])
        case "/": (route, allowed) = (["GET", "HEAD"].contains(request.method) ? "board" : "chainlink", ["GET", "HEAD", "POST"])
        case "/metrics": (route, allowed) = ("metrics", ["GET", "HEAD"])
        case "/healthz": (route, allowed) = ("healthz", ["GET", "HEAD"])
        case "/readyz": (route, allowed) = ("readyz", ["GET", "HEAD"])
        default:
            return .response(.error(404, "no route \(JSONValue.quoted(request.path)); routes: GET / (a board), /v1/prices, /v1/stream, /v1/history, /v1/board, POST / (Chainlink), /metrics, /healthz, /readyz"), route: "unknown")
        }
        // The board's page holds no data (its script asks for it with the token), and a browser
        // cannot send a header when it opens a page: it is served without the token.
        if route != "healthz", route != "board", let token = generation.config.serve.token, !Self.authorizes(request.header("authorization"), token: token) {
            return .response(.error(401, "missing or wrong bearer token (send Authorization: Bearer TOKEN)",
                                    headers: [("WWW-Authenticate", "Bearer")]), route: route)
        }
        guard allowed.contains(request.method) else {
            return .response(.error(405, "\(request.method) is not allowed on \(request.path); allowed: \(allowed.joined(separator: ", "))",
                                    headers: [("Allow", allowed.joined(separator: ", "))]), route: route)
        }
        switch route {
        case "prices": return prices(request, generation)
        case "stream": return stream(request, generation)
        case "history": return .response(history(request, generation), route: route)
        case "chainlink": return chainlink(request, generation)
        case "board": return .response(board(request), route: route)
        case "board-config": return .response(boardConfig(request, generation), route: route)
        case "metrics":
            let plugins = generation.catalog.report.plugins.map { (provider: $0.name, version: $0.version) }
            let text = metrics.exposition(plugins: plugins, rateLimitWaits: state.rateLimitWaits, openConnections: openConnections(),
                                          redis: generation.fleet?.client.health) + (generation.feeds?.metricsText() ?? "")
            return .response(.text(200, text, contentType: "text/plain; version=0.0.4; charset=utf-8"), route: route)
        case "healthz":
            return .response(.json(200, #"{"status":"ok"}"#), route: route)
        default:
            let problems = generation.problems
            guard problems.isEmpty else {
                return .response(.json(503, JSONValue.object(JSONObject([
                    ("status", .string("not ready")), ("problems", .array(problems.map(JSONValue.string))),
                ])).serialized), route: route)
            }
            var members: [(String, JSONValue)] = [("status", .string("ready")), ("plugins", .number(String(generation.catalog.report.plugins.count)))]
            if let fleet = generation.fleet {
                // Still 200 when Redis is down: the instance answers, alone; "degraded" says so.
                let readiness = fleet.readiness
                if !readiness.isUp { members[0].1 = .string("degraded") }
                members.append(("shared", .string(readiness.description)))
            }
            return .response(.json(200, JSONValue.object(JSONObject(members)).serialized), route: route)
        }
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
