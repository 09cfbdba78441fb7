import Foundation
import PriceHostTesting
import Testing

/// A plugin whose fetch never completes, or that blocks the thread it was called
/// on, does not hang `fetch`: the provider's deadline (timeoutSeconds ×
/// maxAttempts + 5 s) ends it with one line naming the plugin, and exit 1.
@Suite(.timeLimit(.minutes(2)))
struct FetchDeadlineEndToEndTests {
    func fetch(_ variant: String, name: String) throws -> (CommandResult, String) {
        let plugin = try Sandbox.testPlugin([variant], name: name)
        let sandbox = try Sandbox(config: """
            {
              "plugins": ["\(plugin)"],
              "providers": {"ctest": {"timeoutSeconds": 1, "maxAttempts": 1}}
            }
            """)
        defer { sandbox.remove() }
        return (try sandbox.run(["fetch", "--provider", "ctest", "--asset", "BTC"], timeout: 50), plugin)
    }

    static func expectedLine(_ plugin: String) -> String {
        "pricehost: error: ctest: plugin \(plugin) never called the fetch completion for BTC-USD (waited 6 s: timeoutSeconds × maxAttempts + 5 s); a plugin must call it exactly once per fetch, and never block the thread it is called on"
    }

    @Test func fetchThatNeverCompletesEndsAtTheDeadline() async throws {
        try await offThePool {
            let (result, plugin) = try fetch("VARIANT_NO_COMPLETION", name: "libSilent.so")
            #expect(result == CommandResult(status: 1, standardOutput: "", standardError: Self.expectedLine(plugin) + "\n"))
        }
    }

    @Test func pluginBlockingItsThreadEndsAtTheDeadline() async throws {
        try await offThePool {
            let (result, plugin) = try fetch("VARIANT_BLOCK", name: "libBlock.so")
            #expect(result == CommandResult(status: 1, standardOutput: "", standardError: Self.expectedLine(plugin) + "\n"))
        }
    }
}
