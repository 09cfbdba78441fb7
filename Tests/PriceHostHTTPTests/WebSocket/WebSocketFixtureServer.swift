import PriceHostTesting

/// `Fixtures/websocket_server.py` running in one of its modes on 127.0.0.1: Python's
/// `websockets` or, for the two frames it will not send, a raw socket (``PythonFixtureServer``).
enum WebSocketFixtureServer {
    static let script = BuiltProducts.packageRoot + "/Tests/PriceHostHTTPTests/Fixtures/websocket_server.py"

    /// True when the fixture can run; otherwise prints why `test` skips.
    static func available(for test: String) async -> Bool {
        await PythonFixtureServer.available(for: "WebSocketConnectionTests.\(test)")
    }

    /// Starts the script with `arguments` (the mode first).
    static func start(_ arguments: [String]) async throws -> PythonFixtureServer {
        try await PythonFixtureServer.start(script: script, arguments)
    }
}
