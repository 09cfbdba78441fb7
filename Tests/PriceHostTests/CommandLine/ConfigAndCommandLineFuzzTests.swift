import Foundation
@testable import PriceHost
@testable import PriceHostCore
import ProviderABI
import PriceHostFuzzing
import PriceHostTestTraits
import Testing

/// Seeded, bounded fuzzing of the host's two front doors, `plugins.json`
/// (``ConfigParser``) and the command line (``Invocation``): the only outcomes
/// allowed are a checked value, or a ``ConfigError`` / ``UsageError``. See docs/FUZZING.md.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct ConfigAndCommandLineFuzzTests {
    // MARK: plugins.json

    private static let environment = ["HOME": "/home/fuzz", "COINBASE_KEY": "secret", "EMPTY": "", "_X1": "${NOT_AGAIN}"]

    private static let configCorpus: [[UInt8]] = [
        """
        {
          "plugins": ["libFileProvider.so", "libPegProvider.so", "libCoinbaseProvider.so"],
          "providers": {
            "file": {"path": "prices.json"},
            "coinbase": {"baseURL": "https://api.coinbase.com", "timeoutSeconds": 10, "maxAttempts": 3}
          },
          "defaults": {"provider": "file", "currency": "USD"},
          "assets": {
            "USDC": {"provider": "peg"}
          }
        }
        """,
        #"{"plugins": [{"path": "../plugins/./libX.so"}, "/opt/p/libY.so"], "pluginDirectories": ["../lib", "/usr/lib/pricehost/", "a//b/../c"]}"#,
        #"{"providers": {"coinbase": {"apiKey": "${COINBASE_KEY}", "literal": "$${COINBASE_KEY}", "nested": ["${HOME}/x", {"e": "${EMPTY}"}], "maxResponseBytes": 67108864, "retryBaseDelayMilliseconds": 0, "maxRetryAfterSeconds": 3600, "maxConcurrentRequests": 64}}}"#,
        #"{"defaults": {"currency": "eur", "provider": null}, "assets": {"btc": {"provider": "coinbase"}, "ETH": {}}}"#,
        "\u{FEFF}{\r\n\"plugins\": []\r\n}\r\n",
        "{}",
    ].map { Array($0.utf8) }

    private static let configTokens = Mutator.commonTokens + [
        "\"plugins\"", "\"pluginDirectories\"", "\"providers\"", "\"defaults\"", "\"assets\"", "\"provider\"", "\"currency\"",
        "\"path\"", "\"sha256\"", "\"timeoutSeconds\"", "\"maxAttempts\"", "301", "0", "-1", "1.0", "1e1", "9223372036854775808",
        "\"${UNSET}\"", "\"${1BAD}\"", "\"${HOME\"", "\"${}\"", "\"${_X1}\"", "\"Coin Base\"", "\"BTC\"", "\"ABCDEFGHIJK\"",
        String(repeating: "a", count: 40), "\"/..\"", "\"\"",
    ].map { Array($0.utf8) }

    private static let configMutator = Mutator(corpus: configCorpus, tokens: configTokens)
    private static let configPaths = ["/etc/pricehost/plugins.json", "/srv/a b/plugins.json", "/plugins.json"]

    @Test func mutatedConfigsParseOrFailCleanly() throws {
        let run = try FuzzRun()
        let tally = run.loop("ConfigAndCommandLineFuzzTests/config", iterations: 12_000) { random, iteration in
            (iteration < Self.configCorpus.count ? Self.configCorpus[iteration] : Self.configMutator.mutate(using: &random), random.pick(Self.configPaths))
        } describe: { input in
            "path \(input.1), contents \(FuzzText.describe(input.0))"
        } check: { input in
            Self.checkConfig(input.0, path: input.1)
        }
        if tally.total >= Self.configCorpus.count {
            #expect(tally.values >= Self.configCorpus.count, "the unmutated corpus must parse: \(tally)")
        }
        #expect(tally.errors > 0, "\(tally)")
    }

    private static func checkConfig(_ bytes: [UInt8], path: String) -> FuzzOutcome {
        let config: Config
        do {
            config = try ConfigParser.parse(bytes, path: path, environment: environment)
        } catch {
            // ConfigError by the signature (typed throws).
            guard error.path == path, !error.reason.isEmpty else { return .problem("the error does not name \(path) and a reason: \(error)") }
            return .error
        }
        guard config.path == path, config.directory == FilePath.directory(of: path) else { return .problem("path \(config.path), directory \(config.directory)") }
        for plugin in config.plugins where plugin.reference.isEmpty || !plugin.keyPath.hasPrefix("plugins[") {
            return .problem("plugin reference \(plugin)")
        }
        for directory in config.pluginDirectories {
            let parts = directory.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            guard directory.hasPrefix("/"), directory == "/" || !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
                return .problem("plugin directory \(FuzzText.quoted(directory)) is not absolute and normalised")
            }
        }
        for (name, settings) in config.providerSettings {
            guard ProviderName.isValid(name) else { return .problem("provider name \(FuzzText.quoted(name))") }
            guard case .object(let object) = settings, ProviderPolicy.keys.allSatisfy({ object[$0] == nil }) else {
                return .problem("providers.\(name) is not an object without the host's keys: \(settings.serialized)")
            }
        }
        for (name, policy) in config.providerPolicies {
            guard (Duration.seconds(1)...Duration.seconds(300)).contains(policy.timeout), (1...10).contains(policy.maxAttempts),
                  (1024...(64 << 20)).contains(policy.maxResponseBytes), (Duration.zero...Duration.seconds(60)).contains(policy.retryBaseDelay),
                  (Duration.zero...Duration.seconds(3600)).contains(policy.maxRetryAfter), (1...64).contains(policy.maxConcurrentRequests) else {
                return .problem("providers.\(name): a policy out of range: \(policy)")
            }
        }
        if let currency = config.defaults.currency, !isCode(currency) { return .problem("defaults.currency \(FuzzText.quoted(currency))") }
        if let provider = config.defaults.provider, !ProviderName.isValid(provider) { return .problem("defaults.provider \(FuzzText.quoted(provider))") }
        for (asset, settings) in config.assets {
            guard isCode(asset) else { return .problem("asset \(FuzzText.quoted(asset))") }
            if let provider = settings.provider, !ProviderName.isValid(provider) { return .problem("assets.\(asset).provider \(FuzzText.quoted(provider))") }
        }
        return .value
    }

    // MARK: Command line

    private static let commandLineCorpus: [[String]] = [
        ["fetch", "--asset", "BTC"],
        ["--config=/etc/p.json", "fetch", "--asset", "btc,eth,BTC", "--currency=eur", "--format", "json"],
        ["fetch", "--asset", "SOL", "--asset", "BTC,SOL", "--provider", "coinbase"],
        ["providers", "--format", "json", "--config", "plugins.json"],
        ["check"],
        ["--help"],
        ["-V"],
        ["__probe", "--plugin", "/opt/pricehost/libFileProvider.so", "--allow-insecure-plugins"],
        ["__probe", "--plugin", "libX.so", "--conformance", "--bad-settings"],
        ["watch", "--asset", "BTC,ETH", "--interval", "30", "--ticks", "3", "--format", "csv"],
        ["fetch", "--provider", "coinbase,file", "--asset", "BTC", "--aggregate", "median"],
        ["check", "--plugin", "./libMine.so", "--config", "test.json"],
        ["serve", "--listen", "127.0.0.1:8480", "--config", "plugins.json"],
        ["serve", "--listen=localhost:0", "--allow-insecure-plugins"],
    ]

    private static let words: [String] = [
        "fetch", "watch", "providers", "check", "help", "version", "FETCH", "--config", "--format", "--provider", "--asset", "--currency",
        "serve", "--listen", "127.0.0.1:8480", "localhost:0", "0.0.0.0:99999", "[::1]:80",
        "--interval", "--ticks", "--aggregate", "median", "mean", "--conformance", "--bad-settings", "0", "0.05", "0.1", "2.5", "1.2345", "86401", "1000001", "coinbase,file",
        "-h", "--help", "-V", "--version", "--unknown", "__probe", "--plugin", "--allow-insecure-plugins",
        "--allow-insecure-plugins=", "/opt/pricehost/libX.so", "-", "--", "-x", "--asset=", "--format=json", "--config=", "=", "==", "",
        "BTC", "eth", "usd", "A", "ABCDEFGHIJ", "ABCDEFGHIJK", "BTC,ETH", "BTC,,ETH", ",", "BTC,", "json", "csv", "text", "JSON",
        "coinbase", "file", "peg", "Coin Base", "coin_base", String(repeating: "a", count: 33), "../", "../../etc/passwd", "%2F",
        "BTC%2FUSD", "ÉTH", "БТЦ", "😀", "e\u{301}", "\u{0}", "ß", "ﬀ", "ı", "１２", "\u{FEFF}BTC", "BTC\n", " BTC",
        String(repeating: "A", count: 10_000), String(repeating: "9", count: 10_000), String(repeating: "é", count: 10_000),
        String(repeating: "-", count: 10_000), "--asset=" + String(repeating: "B", count: 10_000),
    ]

    @Test func mutatedCommandLinesParseOrFailCleanly() throws {
        let run = try FuzzRun()
        let tally = run.loop("ConfigAndCommandLineFuzzTests/commandLine", iterations: 15_000) { random, iteration in
            iteration < Self.commandLineCorpus.count ? Self.commandLineCorpus[iteration] : Self.randomArguments(using: &random)
        } describe: { arguments in
            "\(arguments.count) argument(s): [\(arguments.map { FuzzText.quoted($0) }.joined(separator: ", "))]"
        } check: {
            Self.checkCommandLine($0)
        }
        #expect(tally.values > 0 && tally.errors > 0, "\(tally)")
    }

    private static func randomArguments(using random: inout SeededGenerator) -> [String] {
        var arguments = random.chance(1, in: 2) ? random.pick(commandLineCorpus) : []
        for _ in 0...random.below(4) {
            let position = random.below(arguments.count + 1)
            switch random.below(7) {
            case 0, 1:
                arguments.insert(random.pick(words), at: position)
            case 2:
                let name = random.pick(["--config", "--format", "--provider", "--asset", "--currency", "--plugin", "--allow-insecure-plugins", "--bogus", "-"])
                arguments.insert(name + "=" + random.pick(words), at: position)
            case 3 where !arguments.isEmpty:
                arguments.remove(at: random.below(arguments.count))
            case 4 where !arguments.isEmpty:
                // A mutated argument: its bytes changed, then read back as (repaired) UTF-8.
                let index = random.below(arguments.count)
                let mutator = Mutator(corpus: [Array(arguments[index].utf8)], tokens: Mutator.commonTokens)
                arguments[index] = String(decoding: mutator.mutate(using: &random), as: UTF8.self)
            case 5 where !arguments.isEmpty:
                arguments.insert(arguments[random.below(arguments.count)], at: position)
            default:
                arguments.insert(RandomText.randomString(using: &random), at: position)
            }
        }
        return arguments
    }

    private static func checkCommandLine(_ arguments: [String]) -> FuzzOutcome {
        let invocation: Invocation
        do {
            invocation = try Invocation.parse(arguments)
        } catch {
            // UsageError by the signature (typed throws).
            guard !error.description.isEmpty else { return .problem("an empty usage error") }
            return .error
        }
        // `--help` and `--version` carry no options: their cases have no payload.
        guard case .command(let command) = invocation else { return .value }
        // A command holds only the options it declares (each type stores its own), so fetch's options
        // outside fetch and watch, watch's outside watch, --plugin outside check and __probe, --listen
        // outside serve and the probe's flags outside __probe cannot be held at all; which command takes
        // which option is InvocationTests.eachCommandTakesTheOptionsItTookBefore.
        var quotes: QuoteOptions?
        var plugins: PluginOptions?
        // The command, written back canonically, must parse to itself.
        var canonical = [type(of: command).configuration.name]
        switch command {
        case let fetch as FetchCommand:
            guard !fetch.quotes.assets.isEmpty else { return .problem("fetch without assets: \(fetch)") }
            (quotes, plugins) = (fetch.quotes, fetch.plugins)
            canonical.append("--format=" + fetch.format.rawValue)
        case let watch as WatchCommand:
            guard !watch.quotes.assets.isEmpty else { return .problem("watch without assets: \(watch)") }
            (quotes, plugins) = (watch.quotes, watch.plugins)
            canonical.append("--format=" + watch.format.rawValue)
            canonical.append("--interval=\(watch.intervalMilliseconds / 1000).\(String(watch.intervalMilliseconds % 1000 + 1000).dropFirst())")
            if let ticks = watch.ticks { canonical.append("--ticks=\(ticks)") }
        case let serve as ServeCommand:
            plugins = serve.plugins
            if let listen = serve.listen { canonical.append("--listen=\(listen)") }
        case let providers as ProvidersCommand:
            plugins = providers.plugins
            canonical.append("--format=" + providers.format.rawValue)
        case let check as CheckCommand:
            plugins = check.plugins
            canonical.append("--format=" + check.format.rawValue)
            if let path = check.pluginPath { canonical.append("--plugin=" + path) }
        case let probe as ProbeCommand:
            guard let path = probe.pluginPath, !path.isEmpty else { return .problem("__probe without a plugin: \(probe)") }
            plugins = probe.plugins
            canonical.append("--plugin=" + path)
            if probe.conformance { canonical.append("--conformance") }
            if probe.badSettings { canonical.append("--bad-settings") }
            if probe.loadOnly { canonical.append("--load-only") }
        case let newPlugin as NewPluginCommand:
            guard let name = newPlugin.name, let language = newPlugin.language else { return .problem("new-plugin without a name or language: \(newPlugin)") }
            canonical += [name, "--language", language.rawValue]
            if let directory = newPlugin.directory { canonical.append("--dir=" + directory) }
        default:
            return .problem("an unknown command type \(type(of: command))")
        }
        if let quotes {
            guard quotes.assets.allSatisfy(isCode), Set(quotes.assets).count == quotes.assets.count else {
                return .problem("assets not unique upper-case codes: \(quotes.assets.map { FuzzText.quoted($0) })")
            }
            if let currency = quotes.currency, !isCode(currency) { return .problem("currency \(FuzzText.quoted(currency))") }
            if let providers = quotes.providers {
                if providers.isEmpty || Set(providers).count != providers.count { return .problem("providers \(providers)") }
                if let bad = providers.first(where: { !ProviderName.isValid($0) }) { return .problem("provider \(FuzzText.quoted(bad))") }
            }
            if quotes.aggregateMedian { canonical.append("--aggregate=median") }
            if let providers = quotes.providers { canonical += ["--provider", providers.joined(separator: ",")] }
            canonical += ["--asset", quotes.assets.joined(separator: ",")]
            if let currency = quotes.currency { canonical += ["--currency", currency] }
        }
        if let plugins {
            if let path = plugins.configPath, path.isEmpty { return .problem("an empty --config") }
            if let path = plugins.configPath { canonical.append("--config=" + path) }
            if plugins.allowInsecurePlugins { canonical.append("--allow-insecure-plugins") }
        }
        guard case .command(let again)? = try? Invocation.parse(canonical), again.isEqual(to: command) else {
            return .problem("written back as \(canonical.map { FuzzText.quoted($0) }), it does not parse to the same command")
        }
        return .value
    }

    private static func isCode(_ text: String) -> Bool {
        text.wholeMatch(of: #/[A-Z0-9]{2,10}/#) != nil
    }
}

/// Random strings for arguments: ASCII, control characters and scalars of every UTF-8 length.
private enum RandomText {
    static func randomString(using random: inout SeededGenerator) -> String {
        let pools: [ClosedRange<UInt32>] = [0x20...0x7E, 0x00...0x1F, 0x80...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFF, 0x10000...0x10FFFF]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<random.below(12) {
            let pool = random.pick(pools)
            if let scalar = Unicode.Scalar(pool.lowerBound + UInt32(random.below(Int(pool.upperBound - pool.lowerBound) + 1))) {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }
}
