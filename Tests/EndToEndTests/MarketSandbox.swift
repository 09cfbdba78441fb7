import Foundation
import PriceHostTesting

/// One market plugin asked by the built `pricehost` in a sandbox, its
/// `baseURL` pointed at a loopback server that replays the market's API.
struct MarketSandbox {
    /// The sandbox and the server; ``remove()`` ends both.
    let sandbox: Sandbox
    let server: LoopbackHTTPServer

    /// Starts `replies` on 127.0.0.1 and writes a config that loads `plugin`
    /// for `provider` with quick retries (3 attempts, 10 ms apart) and any
    /// `settings` (JSON members, each after a comma) besides its `baseURL`.
    init(provider: String, plugin: String, settings: String = "",
         replies: @escaping @Sendable (LoopbackHTTPServer.Request, Int) -> LoopbackHTTPServer.Reply) throws {
        server = try LoopbackHTTPServer(handler: replies)
        do {
            sandbox = try Sandbox(config: """
                {
                  "plugins": ["\(plugin)"],
                  "providers": {
                    "\(provider)": {"baseURL": "\(server.baseURL)", "timeoutSeconds": 2, "maxAttempts": 3, "retryBaseDelayMilliseconds": 10\(settings)}
                  },
                  "defaults": {"provider": "\(provider)"}
                }
                """)
        } catch {
            server.stop()
            throw error
        }
    }

    /// Runs `pricehost ARGUMENTS --config plugins.json`.
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
        try sandbox.run(arguments, environment: environment)
    }

    /// Stops the server and removes the sandbox.
    func remove() {
        server.stop()
        sandbox.remove()
    }
}
