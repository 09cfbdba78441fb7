import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// Fallback across providers, staleness and sanity bounds.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct FallbackAndSanityTests {
    func sandbox(extra: String = "", fileSettings: String = #""path": "prices.json""#) throws -> Sandbox {
        let config = """
            {
              "plugins": ["libFileProvider.so", "libPegProvider.so"],
              "providers": {"file": {\(fileSettings)}},
              "defaults": {"provider": "file"}\(extra)
            }
            """
        return try Sandbox(config: config, files: ["prices.json": samplePrices])
    }

    @Test func fallbackOnTheCommandLineNamesTheProviderThatAnswered() throws {
        let sandbox = try sandbox()
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--provider", "peg,file", "--asset", "BTC", "--format", "csv"])
        #expect(result == CommandResult(status: 0, standardOutput: """
            asset,currency,amount,provider,timestamp
            BTC,USD,91234.56,file,2026-11-20T12:00:00Z

            """, standardError: ""))
    }

    @Test func fallbackFromConfigTriesInOrder() throws {
        let sandbox = try sandbox(extra: ",\n  \"assets\": {\"USDC\": {\"providers\": [\"file\", \"peg\"]}}")
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--asset", "USDC", "--format", "csv"])
        #expect(result.status == 0, "\(result)")
        #expect(result.outputLines.last?.hasPrefix("USDC,USD,1,peg,") == true)
        #expect(result.standardError == "")
    }

    @Test func whenEveryProviderFailsEachReasonIsOnTheOneLine() throws {
        let sandbox = try sandbox()
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--provider", "peg,file", "--asset", "DOGE"])
        let prices = sandbox.directory.file("prices.json")
        #expect(result == CommandResult(status: 1, standardOutput: "", standardError: """
            pricehost: error: peg,file: every provider failed for DOGE-USD: peg: DOGE-USD is not a peg this provider knows; \
            file: no price for DOGE-USD in \(prices) (it has: BTC-USD, ETH-USD)

            """))
    }

    @Test func staleQuoteIsRejectedWithItsAgeAndTheLimit() throws {
        let sandbox = try sandbox(fileSettings: #""path": "prices.json", "maxAgeSeconds": 3600"#)
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--asset", "BTC"])
        #expect(result.status == 1, "\(result)")
        #expect(result.standardOutput == "")
        #expect(result.errorLines.count == 1)
        let line = try #require(result.errorLines.first)
        #expect(line.hasPrefix("pricehost: error: file: quote for BTC-USD is "), "\(line)")
        #expect(line.hasSuffix(" s old (from 2026-11-20T12:00:00Z); providers.file.maxAgeSeconds is 3600"), "\(line)")
    }

    @Test func staleQuoteUnderWarnIsUsedWithAWarning() throws {
        let sandbox = try sandbox(fileSettings: #""path": "prices.json", "maxAgeSeconds": 3600, "staleQuotes": "warn""#)
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--asset", "BTC"])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput == "BTC-USD  91234.56  file  2026-11-20T12:00:00Z\n")
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasSuffix("; providers.file.maxAgeSeconds is 3600; using it (staleQuotes: warn)") == true, "\(result)")
    }

    @Test func assetMaxAgeOverridesTheProviders() throws {
        let sandbox = try sandbox(extra: ",\n  \"assets\": {\"BTC\": {\"maxAgeSeconds\": 60}}")
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--asset", "BTC,ETH"])
        #expect(result.status == 4, "\(result)")
        #expect(result.standardOutput == "ETH-USD  3120.48  file  2026-11-20T12:00:00Z\n")
        #expect(result.errorLines.first?.hasSuffix("; assets.BTC.maxAgeSeconds is 60") == true, "\(result)")
    }

    @Test func priceOutsideTheBoundsIsRejectedNamingTheBound() throws {
        let sandbox = try sandbox(extra: ",\n  \"assets\": {\"BTC\": {\"bounds\": {\"min\": \"1000\", \"max\": \"50000\"}}, \"ETH\": {\"bounds\": {\"min\": \"5000\"}}}")
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--asset", "BTC,ETH"])
        #expect(result == CommandResult(status: 1, standardOutput: "", standardError: """
            pricehost: error: file: price 91234.56 for BTC-USD is above assets.BTC.bounds.max (50000)
            pricehost: error: file: price 3120.48 for ETH-USD is below assets.ETH.bounds.min (5000)

            """))
    }

    @Test func badBoundsAndFallbackListsAreConfigErrors() throws {
        let crossed = try sandbox(extra: ",\n  \"assets\": {\"BTC\": {\"bounds\": {\"min\": \"10\", \"max\": \"1\"}}}")
        defer { crossed.remove() }
        #expect(try crossed.run(["fetch", "--asset", "BTC"]) == CommandResult(status: 3, standardOutput: "", standardError: """
            pricehost: error: \(crossed.configPath): assets.BTC.bounds: min 10 is above max 1

            """))
        let both = try sandbox(extra: ",\n  \"assets\": {\"BTC\": {\"provider\": \"file\", \"providers\": [\"peg\"]}}")
        defer { both.remove() }
        #expect(try both.run(["fetch", "--asset", "BTC"]) == CommandResult(status: 3, standardOutput: "", standardError: """
            pricehost: error: \(both.configPath): assets.BTC.providers: give provider or providers, not both

            """))
    }
}
