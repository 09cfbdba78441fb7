import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// `fetch --aggregate median` across three C providers with known prices.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct AggregateTests {
    func sandbox(extra: String = "") throws -> Sandbox {
        let alpha = try Sandbox.testPlugin(["PROVIDER=\"alpha\"", "AMOUNT=\"100.00\""], name: "libAlpha.so")
        let beta = try Sandbox.testPlugin(["PROVIDER=\"beta\"", "AMOUNT=\"101.00\""], name: "libBeta.so")
        let gamma = try Sandbox.testPlugin(["PROVIDER=\"gamma\"", "AMOUNT=\"110.00\""], name: "libGamma.so")
        return try Sandbox(config: #"{"plugins": ["\#(alpha)", "\#(beta)", "\#(gamma)"]\#(extra)}"#)
    }

    @Test func medianMinMaxAndSpreadAreRight() throws {
        let sandbox = try sandbox()
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--provider", "alpha,beta,gamma", "--asset", "BTC", "--aggregate", "median", "--format", "json"])
        #expect(result == CommandResult(status: 0, standardOutput: """
            {"asset":"BTC","currency":"USD","amount":"101","provider":"median","timestamp":"2025-11-20T12:00:00Z","min":"100","max":"110",\
            "spreadBps":"990.1","count":3,"sources":{"alpha":"100","beta":"101","gamma":"110"},"outliers":[],"confidence":"1","excluded":{}}

            """, standardError: ""))
    }

    @Test func deviatingSourceIsFlaggedAndFailingSourceLeftOut() throws {
        let sandbox = try sandbox(extra: #", "assets": {"BTC": {"providers": ["alpha", "beta", "gamma"], "maxDeviationBps": 500}}"#)
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--asset", "BTC", "--aggregate", "median", "--format", "csv"])
        #expect(result == CommandResult(status: 0, standardOutput: """
            asset,currency,amount,provider,timestamp,min,max,spread_bps,count,outliers
            BTC,USD,101,median,2025-11-20T12:00:00Z,100,110,990.1,3,gamma

            """, standardError: """
            pricehost: warning: gamma: BTC-USD 110 deviates from the median 101 by 891.09 bps, more than assets.BTC.maxDeviationBps (500)

            """))

        let partial = try sandbox.run(["fetch", "--provider", "alpha,beta", "--asset", "NOPE,BTC", "--aggregate", "median"])
        #expect(partial.status == 4, "\(partial)")
        #expect(partial.standardOutput == "BTC-USD  100.5  median of 2  min 100  max 101  spread 99.5 bps\n")
        #expect(partial.errorLines == ["pricehost: error: alpha,beta: no source answered for NOPE-USD: alpha: no such asset NOPE here; beta: no such asset NOPE here"])
    }

    /// A median names each provider asked and left out, and why: out of bounds, stale, failed.
    @Test func theProvidersLeftOutAreExcludedWithWhy() throws {
        let delta = try Sandbox.testPlugin(["PROVIDER=\"delta\"", "AMOUNT=\"102.00\"", "ANSWER_ASSET=\"ETH\""], name: "libDelta.so")
        let sandbox = try sandbox(extra: #", "assets": {"BTC": {"bounds": {"max": "105"}}}, "providers": {"beta": {"maxAgeSeconds": 60}}"#)
        defer { sandbox.remove() }
        let config = try String(contentsOfFile: sandbox.directory.file("plugins.json"), encoding: .utf8)
        try config.replacingOccurrences(of: #""plugins": ["#, with: #""plugins": ["\#(delta)", "#)
            .write(toFile: sandbox.directory.file("plugins.json"), atomically: true, encoding: .utf8)
        let result = try sandbox.run(["fetch", "--provider", "alpha,beta,gamma,delta", "--asset", "BTC", "--aggregate", "median", "--format", "json"])
        try #require(result.status == 0, "\(result)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any], "\(result)")
        #expect(object["amount"] as? String == "100" && object["confidence"] as? String == "0", "\(object)")
        #expect(object["sources"] as? [String: String] == ["alpha": "100"])
        let excluded = try #require(object["excluded"] as? [String: String], "\(object)")
        #expect(Set(excluded.keys) == ["beta", "gamma", "delta"])
        #expect(excluded["gamma"] == "out of bounds: 110 is above assets.BTC.bounds.max (105)")
        #expect(excluded["beta"]?.wholeMatch(of: /stale: \d+ s old, maxAgeSeconds 60/) != nil, "\(excluded)")
        #expect(excluded["delta"]?.hasPrefix("failed: ") == true && excluded["delta"]?.contains("ETH") == true, "\(excluded)")
    }

    @Test func watchAggregatesEachTick() throws {
        let sandbox = try sandbox()
        defer { sandbox.remove() }
        let result = try sandbox.run(["watch", "--provider", "alpha,beta,gamma", "--asset", "BTC", "--aggregate", "median",
                                      "--format", "csv", "--interval", "1", "--ticks", "2"])
        #expect(result == CommandResult(status: 0, standardOutput: """
            asset,currency,amount,provider,timestamp,min,max,spread_bps,count,outliers
            BTC,USD,101,median,2025-11-20T12:00:00Z,100,110,990.1,3,
            BTC,USD,101,median,2025-11-20T12:00:00Z,100,110,990.1,3,

            """, standardError: ""))
    }
}
