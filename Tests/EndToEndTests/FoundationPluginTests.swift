import Foundation
import Glibc
import PriceHostTesting
import Testing

/// A Swift plugin that imports Foundation, built out of tree as its author would,
/// loaded by every command: each ends in its normal time with the right status
/// (issue 23: loading CoreFoundation took the main queue, and every command hung
/// after its output).
@Suite(.serialized, .timeLimit(.minutes(10)))
struct FoundationPluginTests {
    static let source = BuiltProducts.packageRoot + "/Tests/EndToEndTests/Fixtures/foundation-plugin/FoundationPlugin.swift"

    static func plugin() throws -> String {
        try SwiftPluginBuilder.build(source: source, product: "FoundationPlugin")
    }

    /// A sandbox whose config names the Foundation plugin, then the file provider.
    static func sandbox() throws -> (Sandbox, String) {
        let plugin = try plugin()
        return (try Sandbox(config: configJSON(plugins: [plugin, "libFileProvider.so"], extra: """
            ,
              "assets": {"USDC": {"provider": "foundation"}}
            """), files: ["prices.json": samplePrices]), plugin)
    }

    @Test func fetchPrintsTheQuoteAndExits() async throws {
        try await offThePool {
            let (sandbox, _) = try Self.sandbox()
            defer { sandbox.remove() }
            let result = try sandbox.run(["fetch", "--provider", "foundation", "--asset", "USDC", "--format", "csv"], timeout: 30)
            #expect(result.status == 0, "\(result)")
            #expect(result.outputLines.count == 2, "\(result)")
            #expect(result.outputLines.last?.hasPrefix("USDC,USD,1,foundation,") == true, "\(result)")
            #expect(result.standardError == "")
        }
    }

    @Test func fetchThatFailsSaysSoAndExits() async throws {
        try await offThePool {
            let (sandbox, _) = try Self.sandbox()
            defer { sandbox.remove() }
            let result = try sandbox.run(["fetch", "--provider", "foundation", "--asset", "BTC"], timeout: 30)
            #expect(result == CommandResult(status: 1, standardOutput: "", standardError: "pricehost: error: foundation: no price for BTC-USD\n"))
        }
    }

    @Test func providersListsItAndExits() async throws {
        try await offThePool {
            let (sandbox, plugin) = try Self.sandbox()
            defer { sandbox.remove() }
            let result = try sandbox.run(["providers"], timeout: 30)
            #expect(result.status == 0, "\(result)")
            #expect(result.standardOutput.contains("foundation"), "\(result)")
            #expect(result.standardOutput.contains(plugin), "\(result)")
        }
    }

    @Test func checkOfThePluginPassesAndExits() async throws {
        try await offThePool {
            let plugin = try Self.plugin()
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let result = try CommandRunner.run(BuiltProducts.pricehost, ["check", "--plugin", plugin], currentDirectory: directory.path, timeout: 60)
            #expect(result.status == 0, "\(result)")
            #expect(result.outputLines.last == "conformance passed", "\(result)")
        }
    }

    @Test func checkOfTheConfigPassesAndExits() async throws {
        try await offThePool {
            let (sandbox, plugin) = try Self.sandbox()
            defer { sandbox.remove() }
            let result = try sandbox.run(["check"], timeout: 60)
            #expect(result.status == 0, "\(result)")
            #expect(result.outputLines.contains("plugin foundation 1.0.0 (\(plugin)): ok, fetchers: foundation"), "\(result)")
            #expect(result.outputLines.last == "check passed: 2 plugin(s), 0 warning(s)", "\(result)")
        }
    }

    @Test func watchRunsItsTicksAndExits() async throws {
        try await offThePool {
            let (sandbox, _) = try Self.sandbox()
            defer { sandbox.remove() }
            let result = try sandbox.run(["watch", "--provider", "foundation", "--asset", "USDC", "--interval", "0.2", "--ticks", "2", "--format", "json"], timeout: 30)
            #expect(result.status == 0, "\(result)")
            #expect(result.outputLines.count == 2, "\(result)")
            #expect(result.outputLines.allSatisfy { $0.contains(#""amount":"1""#) && $0.contains(#""provider":"foundation""#) }, "\(result)")
        }
    }

    @Test func serveAnswersAndStopsOnSIGTERM() async throws {
        try await offThePool {
            let (sandbox, _) = try Self.sandbox()
            defer { sandbox.remove() }
            let server = try ServeProcess(sandbox)
            let reply = try server.get("/v1/prices?asset=USDC")
            #expect(reply.status == 200, "\(reply)")
            #expect(reply.body.contains(#""amount":"1""#), "\(reply)")
            #expect(server.stop(within: 10) == 0, "\(server.process.standardError)")
        }
    }

    /// Load order: the Foundation plugin is loaded first, then a fetch goes through one that does not import it.
    @Test func fetchThroughAnotherPluginAfterLoadingItWorks() async throws {
        try await offThePool {
            let (sandbox, _) = try Self.sandbox()
            defer { sandbox.remove() }
            let fetched = try sandbox.run(["fetch", "--provider", "file", "--asset", "BTC", "--format", "csv"], timeout: 30)
            #expect(fetched == CommandResult(status: 0, standardOutput: """
                asset,currency,amount,provider,timestamp
                BTC,USD,91234.56,file,2026-11-20T12:00:00Z

                """, standardError: ""))
            let both = try sandbox.run(["fetch", "--provider", "foundation,file", "--asset", "USDC,BTC", "--format", "csv"], timeout: 30)
            #expect(both.status == 0, "\(both)")
            #expect(both.outputLines.count == 3, "\(both)")
        }
    }
}
