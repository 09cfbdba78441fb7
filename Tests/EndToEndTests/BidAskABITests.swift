import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// ABI 1.4's `ph_quote.bid` and `ask` from a C plugin, through `pricehost fetch --format json`:
/// exact and after the five members when given; a plugin built for 1.3 (a quote without them)
/// still answers; a bad one fails the quote by name.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct BidAskABITests {
    func fetch(_ plugin: String, provider: String, asset: String = "BTC") throws -> CommandResult {
        let sandbox = try Sandbox(config: configJSON(plugins: [plugin]))
        defer { sandbox.remove() }
        return try sandbox.run(["fetch", "--provider", provider, "--asset", asset, "--format", "json"])
    }

    @Test func aPluginsBidAndAskArePrintedExactlyAfterTheOtherMembers() throws {
        let plugin = try Sandbox.testPlugin([#"BID="64000.10""#, #"ASK="64000.2000""#, #"PROVIDER="book""#], name: "libBook.so")
        #expect(try fetch(plugin, provider: "book").withoutAges == CommandResult(status: 0, standardOutput: """
            {"asset":"BTC","currency":"USD","amount":"100.25","provider":"book","timestamp":"2025-11-20T12:00:00Z","bid":"64000.1","ask":"64000.2","status":"live"}

            """, standardError: ""))
    }

    @Test func anAskAloneIsPrintedAloneAndNoneMeansNoMember() throws {
        let askOnly = try Sandbox.testPlugin([#"ASK="7""#, #"PROVIDER="asks""#], name: "libAsks.so")
        #expect(try fetch(askOnly, provider: "asks").withoutAges.standardOutput
                == #"{"asset":"BTC","currency":"USD","amount":"100.25","provider":"asks","timestamp":"2025-11-20T12:00:00Z","ask":"7","status":"live"}"# + "\n")
        let neither = try Sandbox.testPlugin([#"PROVIDER="plain""#], name: "libPlain.so")
        #expect(try fetch(neither, provider: "plain").withoutAges.standardOutput
                == #"{"asset":"BTC","currency":"USD","amount":"100.25","provider":"plain","timestamp":"2025-11-20T12:00:00Z","status":"live"}"# + "\n")
    }

    @Test func aPluginBuiltAgainstThe1_3HeaderStillAnswersWithoutBidOrAsk() throws {
        // Its ph_quote ends at timestamp_ms: what lies past it in memory is not the host's to read.
        let oldHeader = BuiltProducts.packageRoot + "/Tests/EndToEndTests/Fixtures/abi-1.3"
        let plugin = try CPluginCompiler.compile(source: Sandbox.testPluginSource, defines: [#"PROVIDER="old13""#],
                                                 name: "libOld13.so", includeDirectory: oldHeader)
        let sandbox = try Sandbox(config: configJSON(plugins: [plugin]))
        defer { sandbox.remove() }
        let providers = try sandbox.run(["providers", "--format", "json"])
        #expect(providers.standardOutput.contains(#""name":"old13","version":"0.9.1","path":"\#(plugin)","abi":"1.3""#), "\(providers)")
        #expect(try fetch(plugin, provider: "old13").withoutAges == CommandResult(status: 0, standardOutput: """
            {"asset":"BTC","currency":"USD","amount":"100.25","provider":"old13","timestamp":"2025-11-20T12:00:00Z","status":"live"}

            """, standardError: ""))
    }

    @Test func aSizeEndingInsideTheBidsPointerReadsNoBid() throws {
        let plugin = try Sandbox.testPlugin(["VARIANT_CUT_BID", #"PROVIDER="cut""#], name: "libCut.so")
        #expect(try fetch(plugin, provider: "cut").withoutAges == CommandResult(status: 0, standardOutput: """
            {"asset":"BTC","currency":"USD","amount":"100.25","provider":"cut","timestamp":"2025-11-20T12:00:00Z","status":"live"}

            """, standardError: ""))
    }

    @Test(arguments: [
        ([#"BID="1e5""#, #"ASK="2""#], #"book: plugin returned a bid that is not a decimal price above zero: "1e5""#),
        ([#"BID="1""#, #"ASK="""#], #"book: plugin returned an ask that is not a decimal price above zero: """#),
        ([#"BID=" 1""#], #"book: plugin returned a bid that is not a decimal price above zero: " 1""#),
        ([#"BID="0""#, #"ASK="2""#], #"book: plugin returned a bid that is not a decimal price above zero: "0""#),
        ([#"BID="1""#, #"ASK="-2""#], #"book: plugin returned an ask that is not a decimal price above zero: "-2""#),
    ])
    func aMalformedBidOrAskFailsTheQuoteNamingIt(defines: [String], message: String) throws {
        let plugin = try Sandbox.testPlugin(defines + [#"PROVIDER="book""#], name: "libBadBook.so")
        #expect(try fetch(plugin, provider: "book") == CommandResult(status: 1, standardOutput: "", standardError: "pricehost: error: \(message)\n"))
    }
}
