import ProviderABI

/// One of serve's routes. ``ServeRouter/table`` lists them all, and dispatch, the 404's list,
/// the 405's `Allow`, the usage note (and so the man page) and docs/serve.md's table (held
/// to it by a test) all come from that one list.
package struct ServeRoute: Sendable {
    /// What a route's handler gets: the router (its state, metrics, hub), the request, and the
    /// generation served when the request arrived.
    package typealias Handler = @Sendable (ServeRouter, ServeRequest, ServeGeneration) -> ServeReply

    /// The methods it answers; the first is the one its docs name. A GET route answers HEAD too.
    package let methods: [String]
    package let path: String
    /// What metrics and the access log count it under (`pricehost_http_requests_total{route}`).
    package let name: String
    /// Whether `serve.token`, when set, is needed.
    package let needsToken: Bool
    /// What the usage note says of it, after its path: "a board".
    package let note: String?
    let handler: Handler

    init(_ method: String, _ path: String, name: String, needsToken: Bool = true, note: String? = nil, handler: @escaping Handler) {
        methods = method == "GET" ? ["GET", "HEAD"] : [method]
        self.path = path
        self.name = name
        self.needsToken = needsToken
        self.note = note
        self.handler = handler
    }
}

extension ServeRouter {
    /// Every route, in the order the usage note and docs/serve.md list them.
    package static let table: [ServeRoute] = [
        // The board's page holds no data (its script asks for it with the token), and a browser
        // cannot send a header when it opens a page: it is served without the token.
        ServeRoute("GET", "/", name: "board", needsToken: false, note: "a board") { router, request, _ in
            .response(router.board(request), route: "board")
        },
        ServeRoute("GET", "/v1/prices", name: "prices") { router, request, generation in router.prices(request, generation) },
        ServeRoute("GET", "/v1/stream", name: "stream") { router, request, generation in router.stream(request, generation) },
        ServeRoute("GET", "/v1/history", name: "history") { router, request, generation in
            // From memory on the event loop; from the store, which may read days of quotes, on the cooperative pool.
            let answer = { @Sendable in ServeAnswer.response(router.history(request, generation, now: router.metrics.clock.wallNow), route: "history") }
            return router.metrics.store.store == nil ? .now(answer()) : .later { answer() }
        },
        ServeRoute("GET", "/v1/candles", name: "candles") { router, request, generation in router.stored(.candles, request, generation) },
        ServeRoute("GET", "/v1/price", name: "price") { router, request, generation in router.stored(.price, request, generation) },
        ServeRoute("GET", "/v1/twap", name: "twap") { router, request, generation in router.stored(.twap, request, generation) },
        ServeRoute("GET", "/v1/board", name: "board-config") { router, request, generation in
            .response(router.boardConfig(request, generation), route: "board-config")
        },
        ServeRoute("POST", "/", name: "chainlink", note: "Chainlink") { router, request, generation in router.chainlink(request, generation) },
        ServeRoute("GET", "/metrics", name: "metrics") { router, _, generation in .response(router.metricsText(generation), route: "metrics") },
        ServeRoute("GET", "/healthz", name: "healthz", needsToken: false) { _, _, _ in
            .response(.json(200, #"{"status":"ok"}"#), route: "healthz")
        },
        ServeRoute("GET", "/readyz", name: "readyz") { router, _, generation in
            .response(readiness(generation, store: router.metrics.store), route: "readyz")
        },
    ]

    /// The routes as the usage note and the 404 list them: `GET / (a board), /v1/prices, …, POST / (Chainlink), …`;
    /// a method is named only where one path answers two.
    package static var summary: String {
        table.map { route in
            let shared = table.contains { $0.path == route.path && $0.methods != route.methods }
            return (shared ? route.methods[0] + " " : "") + route.path + (route.note.map { " (\($0))" } ?? "")
        }.joined(separator: ", ")
    }

    /// The routes on `path`, in the table's order; empty when none is.
    static func routes(on path: String) -> [ServeRoute] {
        table.filter { $0.path == path }
    }

    /// A method no route of the path answers: 405 with `Allow`, counted under the path's last route
    /// (its token still checked first, as for the route itself).
    static func notAllowed(on routes: [ServeRoute]) -> ServeRoute {
        let allowed = routes.flatMap(\.methods).joined(separator: ", ")
        let last = routes[routes.count - 1]
        return ServeRoute(last.methods[0], last.path, name: last.name, needsToken: routes.contains { $0.needsToken }) { _, request, _ in
            .response(.error(405, "\(request.method) is not allowed on \(request.path); allowed: \(allowed)",
                             headers: [("Allow", allowed)]), route: last.name)
        }
    }

    /// A path no route has: 404 with the list of routes.
    static let notFound = ServeRoute("GET", "", name: "unknown", needsToken: false) { _, request, _ in
        .response(.error(404, "no route \(JSONValue.quoted(request.path)); routes: \(ServeRouter.summary)"), route: "unknown")
    }
}
