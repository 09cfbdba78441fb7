@testable import PriceHostCore
import ProviderABI
import Testing

struct ConfigParserTests {
    let path = "/srv/pricehost/plugins.json"

    func parse(_ text: String, environment: [String: String] = [:]) throws(ConfigError) -> Config {
        try ConfigParser.parse(Array(text.utf8), path: path, environment: environment)
    }

    @Test func fullConfigIsReadWithPathsMadeAbsolute() throws {
        let config = try parse("""
            {
              "plugins": ["libFileProvider.so", "../lib/libX.so", {"path": "/opt/libY.so"}],
              "pluginDirectories": ["plugins.d", "/var/lib/pricehost"],
              "providers": {"file": {"path": "prices.json", "nested": {"list": ["${HOME}/x", 1.50]}}},
              "defaults": {"provider": "file", "currency": "eur"},
              "assets": {"eth": {"provider": "peg"}, "BTC": {}}
            }
            """, environment: ["HOME": "/home/ada"])
        #expect(config.directory == "/srv/pricehost")
        #expect(config.plugins.map(\.reference) == ["libFileProvider.so", "../lib/libX.so", "/opt/libY.so"])
        #expect(config.plugins.map(\.keyPath) == ["plugins[0]", "plugins[1]", "plugins[2]"])
        #expect(config.plugins.map(\.isPath) == [false, true, true])
        #expect(config.absolutePath("../lib/libX.so") == "/srv/lib/libX.so")
        #expect(config.pluginDirectories == ["/srv/pricehost/plugins.d", "/var/lib/pricehost"])
        #expect(config.providerSettings["file"]?.serialized == #"{"path":"prices.json","nested":{"list":["/home/ada/x",1.50]}}"#)
        #expect(config.defaults == Config.Defaults(provider: "file", currency: "EUR"))
        #expect(config.defaultCurrency == "EUR")
        #expect(config.assets == ["ETH": Config.AssetSettings(provider: "peg"), "BTC": Config.AssetSettings(provider: nil)])
    }

    @Test func emptyObjectIsAValidConfigWithUSDAsCurrency() throws {
        let config = try parse("{}")
        #expect(config.plugins.isEmpty)
        #expect(config.defaultCurrency == "USD")
    }

    @Test func crossViaIsUSDUnlessGivenAndCodesAreUpperCased() throws {
        #expect(try parse("{}").crossVia == ["USD"])
        #expect(try parse(#"{"crossVia": ["usdt", "EUR"]}"#).crossVia == ["USDT", "EUR"])
        #expect(try parse(#"{"crossVia": []}"#).crossVia == [])
    }

    @Test(arguments: [
        ("[]", "(top level): expected an object, found an array"),
        (#"{"plugins": "libA.so"}"#, "plugins: expected an array, found a string"),
        (#"{"plugins": [3]}"#, "plugins[0]: expected a file name, a path, or {\"path\": …}, found a number"),
        (#"{"plugins": [""]}"#, "plugins[0]: must not be empty"),
        (#"{"plugins": [{"file": "x.so"}]}"#, "plugins[0].file: unknown key; expected one of: path, sha256"),
        (#"{"plugins": [{}]}"#, "plugins[0].path: missing"),
        (#"{"pluginDirectories": [""]}"#, "pluginDirectories[0]: must not be empty"),
        (#"{"providers": {"File": {}}}"#, "providers.File: provider names are 1 to 32 lower-case letters, digits or '-'"),
        (#"{"providers": {"file": "prices.json"}}"#, "providers.file: expected an object, found a string"),
        (#"{"defaults": {"currency": "U"}}"#, "defaults.currency: must be 2 to 10 letters or digits, found \"U\""),
        (#"{"defaults": {"provider": "x", "timeout": 3}}"#, "defaults.timeout: unknown key; expected one of: provider, currency"),
        (#"{"assets": {"E/TH": {}}}"#, "assets.E/TH: asset code must be 2 to 10 letters or digits"),
        (#"{"assets": {"eth": {}, "ETH": {}}}"#, "assets.ETH: ETH is given twice"),
        (#"{"providers": {"x": {"k": "${1BAD}"}}}"#, "providers.x.k: ${1BAD} is not a valid environment variable name"),
        (#"{"providers": {"x": {"k": "${OPEN"}}}"#, "providers.x.k: unterminated ${ in \"${OPEN\"; write $${ for a literal ${"),
        ("{\"plugins\": []\n\"x\": 1}", "line 2, column 1: expected ',' or '}' after an object member, found '\"'"),
        (#"{"plugins": [], "plugins": []}"#, "line 1, column 17: duplicate key \"plugins\""),
        (#"{"crossVia": "USD"}"#, "crossVia: expected an array, found a string"),
        (#"{"crossVia": [1]}"#, "crossVia[0]: expected a string, found a number"),
        (#"{"crossVia": ["U$D"]}"#, "crossVia[0]: must be 2 to 10 letters or digits, found \"U$D\""),
        (#"{"crossVia": ["USD", "usd"]}"#, "crossVia: names a currency twice"),
    ])
    func invalidConfigNamesTheKeyPathOrLine(text: String, reason: String) {
        #expect(throws: ConfigError(path: path, reason: reason)) { try parse(text) }
    }

    @Test func variablesAreSubstitutedAndDoubledDollarIsLiteral() throws {
        let config = try parse(#"{"providers": {"x": {"a": "$${KEEP} ${ONE}-${TWO} $5 $"}}}"#, environment: ["ONE": "1", "TWO": "2"])
        #expect(config.providerSettings["x"]?.serialized == #"{"a":"${KEEP} 1-2 $5 $"}"#)
    }
}

extension ConfigParserTests {
    @Test func hostKeysBecomeThePolicyAndNeverReachThePlugin() throws {
        let config = try parse(#"{"providers": {"coinbase": {"baseURL": "http://x", "timeoutSeconds": 3, "maxAttempts": 5, "maxResponseBytes": 2048, "retryBaseDelayMilliseconds": 0, "maxRetryAfterSeconds": 9, "maxConcurrentRequests": 2}}}"#)
        #expect(config.providerSettings["coinbase"]?.serialized == #"{"baseURL":"http://x"}"#)
        var expected = ProviderPolicy()
        expected.timeout = .seconds(3)
        expected.maxAttempts = 5
        expected.maxResponseBytes = 2048
        expected.retryBaseDelay = .zero
        expected.maxRetryAfter = .seconds(9)
        expected.maxConcurrentRequests = 2
        #expect(config.policy(for: "coinbase") == expected)
        #expect(config.policy(for: "file") == ProviderPolicy())
    }

    @Test func outOfRangePolicyNamesTheKey() {
        #expect(throws: ConfigError(path: path, reason: "providers.coinbase.maxAttempts: expected a whole number from 1 to 10, found 0")) {
            try parse(#"{"providers": {"coinbase": {"maxAttempts": 0}}}"#)
        }
        #expect(throws: ConfigError(path: path, reason: "providers.coinbase.timeoutSeconds: expected a number, found a string")) {
            try parse(#"{"providers": {"coinbase": {"timeoutSeconds": "10"}}}"#)
        }
    }
}
