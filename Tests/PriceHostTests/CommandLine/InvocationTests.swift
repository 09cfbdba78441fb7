@testable import PriceHost
import PriceHostCore
import Testing

struct InvocationTests {
    /// The command `arguments` parse to, as a `C`; nil (and a recorded issue) for anything else.
    static func parse<C: ParsableCommand>(_ arguments: [String], as type: C.Type) throws -> C? {
        guard case .command(let command) = try Invocation.parse(arguments), let parsed = command as? C else {
            Issue.record("\(arguments) did not parse to a \(C.self)")
            return nil
        }
        return parsed
    }

    @Test func optionsMayComeBeforeOrAfterTheCommandInBothSpellings() throws {
        let fetch = try Self.parse(["--config=/etc/p.json", "fetch", "--asset", "btc,eth,BTC", "--currency=eur", "--format", "json"], as: FetchCommand.self)
        var expected = FetchCommand()
        expected.plugins.configPath = "/etc/p.json"
        expected.format = .json
        expected.quotes.providers = nil
        expected.quotes.assets = ["BTC", "ETH"]
        expected.quotes.currency = "EUR"
        #expect(fetch == expected)
    }

    @Test func repeatedAssetOptionsAppendInOrder() throws {
        let fetch = try Self.parse(["fetch", "--asset", "SOL", "--asset", "BTC,SOL"], as: FetchCommand.self)
        #expect(fetch?.quotes.assets == ["SOL", "BTC"])
    }

    @Test(arguments: [("30", 30_000), ("0.1", 100), ("0.5", 500), ("2.25", 2_250), ("1.005", 1_005), ("86400", 86_400_000)])
    func intervalIsSecondsToTheMillisecond(text: String, milliseconds: Int) throws {
        #expect(try Self.parse(["watch", "--asset", "BTC", "--interval", text], as: WatchCommand.self)?.intervalMilliseconds == milliseconds)
    }

    @Test(arguments: ["0", "0.05", "0.099", "86400.001", "1.2345", "1.", ".5", "-1", "1e3", "nan", "inf", "0x10", " 1", "1,5", "9999999"])
    func intervalOutsideItsRangeOrFormIsAUsageError(text: String) {
        #expect(throws: UsageError("--interval must be a number of seconds from 0.1 to 86400 (at most 3 decimals), not '\(text)'")) {
            try Invocation.parse(["watch", "--asset", "BTC", "--interval", text])
        }
    }

    @Test func helpAndVersionWinOverEverythingElse() throws {
        #expect(try Invocation.parse(["--help"]).isHelp)
        #expect(try Invocation.parse(["help"]).isHelp)
        #expect(try Invocation.parse(["--version"]).isVersion)
    }

    @Test(arguments: [
        ([], "no command given; try 'pricehost fetch --asset BTC' or 'pricehost --help'"),
        (["fetch", "--asset"], "option --asset needs a value"),
        (["fetch", "--asset", "BTC", "--provider", "Coin Base"], "--provider 'Coin Base' is not a provider name (provider names are 1 to 32 lower-case letters, digits or '-')"),
        (["fetch", "--asset", "BTC,,ETH"], "--asset \"\" is not an asset code (2 to 10 letters or digits)"),
        (["fetch", "--asset", "BTC%2F"], "--asset \"BTC%2F\" is not an asset code (2 to 10 letters or digits)"),
        (["fetch", "--asset", "ÉTH"], "--asset \"ÉTH\" is not an asset code (2 to 10 letters or digits)"),
        (["fetch", "--asset", "ABCDEFGHIJK"], "--asset \"ABCDEFGHIJK\" is not an asset code (2 to 10 letters or digits)"),
        (["fetch", "--asset", "BTC", "--config", "a", "--config", "b"], "option --config is given twice"),
        (["fetch", "providers", "--asset", "BTC"], "unexpected argument 'providers'; options take the form --name value"),
        (["version"], "unknown command 'version'; commands are fetch, watch, serve, history, providers, check, new-plugin, completions"),
        (["check", "--currency", "USD"], "option --currency does not apply to 'check'"),
        (["fetch", "--asset", "BTC", "--config="], "--config needs a path"),
    ])
    func badCommandLinesAreNamedUsageErrors(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try Invocation.parse(arguments) }
    }
}

extension InvocationTests {
    @Test func helpBeforeABadOptionStillShowsHelp() throws {
        #expect(try Invocation.parse(["fetch", "-h", "--bogus"]).isHelp)
    }
}

extension Invocation {
    var isHelp: Bool {
        if case .help = self { return true }
        return false
    }

    var isVersion: Bool {
        if case .version = self { return true }
        return false
    }
}

extension InvocationTests {
    @Test func watchStreamTakesItsDeliveryRule() throws {
        let watch = try #require(try Self.parse(["watch", "--asset", "BTC", "--stream", "--deviation-bps", "25", "--heartbeat", "60s", "--max-age", "1.5m"],
                                                as: WatchCommand.self))
        #expect(watch.delivery == DeliveryRule(deviationBps: 25, heartbeat: .seconds(60)))
        // --max-age is fetch's and polling watch's too: it is kept with the quote options, and the stream's rule takes it from there.
        #expect(watch.quotes.maxAgeMilliseconds == 90_000)
    }

    @Test(arguments: [("60s", 60_000), ("60", 60_000), ("1.5m", 90_000), ("2h", 7_200_000), ("250ms", 250), ("0.001s", 1), ("0s", 0)])
    func aDurationFlagTakesAUnit(text: String, milliseconds: Int) {
        #expect(DurationOption.parse(text) == .milliseconds(milliseconds))
    }

    @Test(arguments: ["", "s", "-1s", "1.5ms", "1.0001s", "60x", "1d", "ms", " 60s"])
    func aDurationFlagRefusesWhatIsNotOne(text: String) {
        #expect(DurationOption.parse(text) == nil)
    }
}
