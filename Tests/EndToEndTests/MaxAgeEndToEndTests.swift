import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// `fetch --max-age`, `watch --max-age` and serve's `?maxAgeSeconds=`, from outside: a price file with one
/// quote an hour old and one stamped now; the old one is refused naming its age, the fresh one is given.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct MaxAgeEndToEndTests {
    /// BTC an hour old, ETH stamped as the sandbox is made.
    static func sandbox(serve: Bool = false) throws -> (Sandbox, hourAgo: String) {
        let formatter = ISO8601DateFormatter()
        let hourAgo = formatter.string(from: Date().addingTimeInterval(-3600))
        let prices = """
            [
              {"base": "BTC", "currency": "USD", "amount": "91234.56", "timestamp": "\(hourAgo)"},
              {"base": "ETH", "currency": "USD", "amount": "3120.48", "timestamp": "\(formatter.string(from: Date()))"}
            ]
            """
        return (try Sandbox(config: configJSON(plugins: ["libFileProvider.so"]), files: ["prices.json": prices]), hourAgo)
    }

    @Test func fetchRefusesTheOldQuoteNamingItsAgeAndPrintsTheFreshOneExitingPartial() throws {
        let (sandbox, hourAgo) = try Self.sandbox()
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--asset", "BTC,ETH", "--max-age", "30s", "--format", "json"])
        #expect(result.status == 4, "\(result)")
        #expect(result.outputLines.count == 1)
        #expect(result.outputLines.first?.hasPrefix(#"{"asset":"ETH","currency":"USD","amount":"3120.48","provider":"file","timestamp":""#) == true)
        #expect(result.outputLines.first?.contains(#""status":"live","ageMs":"#) == true, "\(result)")
        let age = try #require(ageMilliseconds(in: result.standardOutput).first)
        #expect(age < 30_000)
        #expect(result.errorLines.count == 1)
        let line = try #require(result.errorLines.first)
        #expect(line.hasPrefix("pricehost: error: file: quote for BTC-USD is 3"), "\(line)")
        #expect(line.hasSuffix(" s old (from \(hourAgo)); --max-age is 30 s"), "\(line)")
    }

    @Test func aLimitAboveTheAgeGivesTheQuoteWithItsAge() throws {
        let (sandbox, _) = try Self.sandbox()
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--asset", "BTC", "--max-age", "2h", "--format", "json"])
        #expect(result.status == 0, "\(result)")
        let age = try #require(ageMilliseconds(in: result.standardOutput).first)
        #expect(age >= 3_600_000 && age < 3_700_000, "\(result)")
    }

    @Test func theOnlyAssetRefusedIsAFailedFetch() throws {
        let (sandbox, _) = try Self.sandbox()
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--asset", "BTC", "--max-age", "59m"])
        #expect(result.status == 1, "\(result)")
        #expect(result.standardOutput == "")
        #expect(result.errorLines.count == 1)
    }

    @Test(arguments: ["0s", "30x", "-5s", ""])
    func aMaxAgeThatIsNoDurationIsAUsageError(value: String) throws {
        let (sandbox, _) = try Self.sandbox()
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--asset", "BTC", "--max-age", value])
        #expect(result.status == 2, "\(result)")
        #expect(result.errorLines.first?.contains("--max-age must be a duration from 1ms to 8760h, a number with s, m, h or ms") == true, "\(result)")
    }

    @Test func watchPrintsTheRefusalAsAnErrorObjectWithTheAge() throws {
        let (sandbox, _) = try Self.sandbox()
        defer { sandbox.remove() }
        let result = try sandbox.run(["watch", "--asset", "BTC,ETH", "--max-age", "30s", "--ticks", "1"])
        #expect(result.status == 0, "\(result)")
        #expect(result.outputLines.count == 2)
        let refused = try #require(result.outputLines.first)
        #expect(refused.hasPrefix(#"{"asset":"BTC","currency":"USD","error":"file: quote for BTC-USD is 3"#), "\(refused)")
        #expect((ageMilliseconds(in: refused).first ?? 0) >= 3_600_000, "\(refused)")
        #expect(result.outputLines.last?.contains(#""asset":"ETH""#) == true)
    }

    @Test func servePricesAnswersTheOldAssetWithAnErrorObjectNamingItsAge() throws {
        let (sandbox, _) = try Self.sandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let reply = try server.get("/v1/prices?asset=BTC,ETH&maxAgeSeconds=30")
        #expect(reply.status == 200, "\(reply)")
        let items = try #require(try JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [[String: Any]])
        #expect(items.count == 2)
        let error = try #require(items.first?["error"] as? String)
        #expect(error.hasPrefix("file: quote for BTC-USD is 3") && error.hasSuffix("maxAgeSeconds is 30 s"), "\(error)")
        #expect(((items.first?["ageMs"] as? Int) ?? 0) >= 3_600_000)
        #expect(items.last?["status"] as? String == "live")
        #expect(((items.last?["ageMs"] as? Int) ?? .max) < 30_000)
        // Without the parameter, the old quote is a price, with its age.
        let all = try server.get("/v1/prices?asset=BTC")
        #expect(all.status == 200)
        #expect((ageMilliseconds(in: all.body).first ?? 0) >= 3_600_000, "\(all)")
        // Every asset refused: 502, as when every asset fails.
        #expect(try server.get("/v1/prices?asset=BTC&maxAgeSeconds=60").status == 502)
        let bad = try server.get("/v1/prices?asset=BTC&maxAgeSeconds=soon")
        #expect(bad.status == 400)
        #expect(bad.body == #"{"error":"maxAgeSeconds must be a number of seconds above 0, up to 999999 (at most 3 decimals), not \"soon\""}"#)
    }
}
