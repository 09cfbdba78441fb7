@testable import PriceHost
import Testing

struct InvocationTests {
    @Test func optionsMayComeBeforeOrAfterTheCommandInBothSpellings() throws {
        let invocation = try Invocation.parse(["--config=/etc/p.json", "fetch", "--asset", "btc,eth,BTC", "--currency=eur", "--format", "json"])
        #expect(invocation == Invocation(command: .fetch, configPath: "/etc/p.json", format: .json, formatWasGiven: true,
                                         providers: nil, assets: ["BTC", "ETH"], currency: "EUR"))
    }

    @Test func repeatedAssetOptionsAppendInOrder() throws {
        let invocation = try Invocation.parse(["fetch", "--asset", "SOL", "--asset", "BTC,SOL"])
        #expect(invocation.assets == ["SOL", "BTC"])
    }

    @Test(arguments: [("30", 30_000), ("0.1", 100), ("0.5", 500), ("2.25", 2_250), ("1.005", 1_005), ("86400", 86_400_000)])
    func intervalIsSecondsToTheMillisecond(text: String, milliseconds: Int) throws {
        #expect(try Invocation.parse(["watch", "--asset", "BTC", "--interval", text]).intervalMilliseconds == milliseconds)
    }

    @Test(arguments: ["0", "0.05", "0.099", "86400.001", "1.2345", "1.", ".5", "-1", "1e3", "nan", "inf", "0x10", " 1", "1,5", "9999999"])
    func intervalOutsideItsRangeOrFormIsAUsageError(text: String) {
        #expect(throws: UsageError("--interval must be a number of seconds from 0.1 to 86400 (at most 3 decimals), not '\(text)'")) {
            try Invocation.parse(["watch", "--asset", "BTC", "--interval", text])
        }
    }

    @Test func helpAndVersionWinOverEverythingElse() throws {
        #expect(try Invocation.parse(["--help"]).command == .help)
        #expect(try Invocation.parse(["help"]).command == .help)
        #expect(try Invocation.parse(["--version"]).command == .version)
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
        (["version"], "unknown command 'version'; commands are fetch, watch, serve, providers, check, new-plugin"),
        (["check", "--currency", "USD"], "option --currency does not apply to 'check'"),
        (["fetch", "--asset", "BTC", "--config="], "--config needs a path"),
    ])
    func badCommandLinesAreNamedUsageErrors(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try Invocation.parse(arguments) }
    }
}

extension InvocationTests {
    @Test func helpBeforeABadOptionStillShowsHelp() throws {
        #expect(try Invocation.parse(["fetch", "-h", "--bogus"]).command == .help)
    }
}
