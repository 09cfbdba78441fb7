import Foundation
import PriceHostTesting
import Testing

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

    /// Fetches `asset` and expects it to fail with exactly `message` as its one
    /// error line (exit status 1) after `requests` requests to `path`: retried
    /// only when a retry can succeed.
    func expectFailure(asset: String, message: String, path: String, requests: Int,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try run(["fetch", "--asset", asset])
        #expect(result == CommandResult(status: 1, standardOutput: "", standardError: "pricehost: error: \(message)\n"),
                sourceLocation: sourceLocation)
        #expect(server.requestCount(path: path) == requests, sourceLocation: sourceLocation)
    }

    /// Fetches `asset`, whose first answer at `path` is a 429 with `Retry-After: 1`
    /// and whose second is a price, and expects a CSV line that starts with
    /// `csvLine` after a pause of at least 1 s.
    func expectRetryAfterHonoured(asset: String, path: String, csvLine: String,
                                  sourceLocation: SourceLocation = #_sourceLocation) throws {
        let started = Date()
        let result = try run(["fetch", "--asset", asset, "--format", "csv"])
        #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
        #expect(result.outputLines.last?.hasPrefix(csvLine) == true, "\(result)", sourceLocation: sourceLocation)
        #expect(server.requestCount(path: path) == 2, sourceLocation: sourceLocation)
        // A lower bound only: nothing here is timed against an upper bound.
        #expect(Date().timeIntervalSince(started) >= 1, sourceLocation: sourceLocation)
    }

    /// Stops the server and removes the sandbox.
    func remove() {
        server.stop()
        sandbox.remove()
    }
}
