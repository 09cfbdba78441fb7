@testable import PriceHost
import Testing

/// The commands' declarations (``ParsableCommand``) against what the command line took,
/// refused and printed before they were declarations.
struct CommandDeclarationTests {
    /// Each command's options, as the hand-kept table in Invocation.swift had them, plus `watch --stream` (streaming),
    /// `watch --record` and `history` (the quote store), `--max-age` (issue 37).
    static let optionsBefore: [String: Set<String>] = [
        "fetch": ["--config", "--format", "--provider", "--asset", "--currency", "--aggregate", "--max-age", "--allow-insecure-plugins"],
        "watch": ["--config", "--format", "--provider", "--asset", "--currency", "--aggregate", "--interval", "--ticks", "--stream", "--record",
                  "--deviation-bps", "--heartbeat", "--max-age", "--allow-insecure-plugins"],
        "history": ["--config", "--asset", "--provider", "--aggregate", "--currency", "--interval", "--from", "--to", "--fill", "--at", "--twap", "--format"],
        "serve": ["--config", "--listen", "--allow-insecure-plugins"],
        "providers": ["--config", "--format", "--allow-insecure-plugins"],
        "check": ["--config", "--format", "--plugin", "--allow-insecure-plugins"],
        "__probe": ["--config", "--plugin", "--allow-insecure-plugins", "--conformance", "--bad-settings", "--load-only", "--parent"],
        "new-plugin": ["--language", "--dir"],
        "completions": [],
        "__complete": ["--config"],
        "__manpage": [],
        "__store-bench": ["--path", "--count", "--series", "--rate", "--days", "--now"],
    ]

    @Test func eachCommandTakesTheOptionsItTookBefore() {
        let declared = Dictionary(uniqueKeysWithValues: Invocation.commands.map { ($0.configuration.name, Set($0.optionSpecs.map(\.name))) })
        #expect(declared == Self.optionsBefore)
        #expect(Invocation.commands.allSatisfy { Set($0.optionSpecs.map(\.name)).count == $0.optionSpecs.count })
    }

    @Test func theFlagsAreTheOptionsThatTookNoValueBefore() {
        let flags = Set(Invocation.knownOptions.values.filter(\.isFlag).map(\.name))
        #expect(flags == ["--allow-insecure-plugins", "--conformance", "--bad-settings", "--load-only", "--stream", "--record"])
        // One name is a flag for every command that takes it, or for none.
        for command in Invocation.commands {
            for spec in command.optionSpecs { #expect(Invocation.knownOptions[spec.name]?.isFlag == spec.isFlag, "\(spec.name)") }
        }
    }

    @Test func everyCommandRunsEitherBeforeOrInATask() {
        for command in Invocation.commands {
            let kinds = [command is any SynchronousCommand.Type, command is any AsyncCommand.Type]
            #expect(kinds.filter { $0 }.count == 1, "\(command)")
        }
    }

    /// Every option of a command `--help` shows is in the help: under OPTIONS, or in a usage line of a command that takes it.
    @Test func everyVisibleOptionIsInTheHelp() {
        for command in Invocation.commands where !command.configuration.isHidden {
            for spec in command.optionSpecs {
                let inUsage = command.usageLines.contains { $0.contains(spec.name + " ") || $0.hasSuffix(spec.name) }
                let inOptions = spec.help != nil && HelpText.usage.contains("\n  \(spec.label)")
                #expect(inUsage || inOptions, "\(command.configuration.name) \(spec.name)")
            }
            // Every word of a usage line that looks like an option is one the command takes.
            for line in command.configuration.usage {
                for word in line.words where word.contains("--") {
                    let name = word.hasPrefix("[") ? String(word.dropFirst().dropLast()) : word
                    #expect(command.optionSpecs.contains { $0.name == name }, "\(command.configuration.name): \(word)")
                }
            }
        }
    }

    @Test func theHiddenProbeIsNeitherInTheHelpNorInTheListOfCommands() throws {
        #expect(!HelpText.usage.contains("__probe"))
        #expect(!HelpText.usage.contains("__manpage"))
        #expect(!HelpText.usage.contains("__complete"))
        #expect(!HelpText.usage.contains("__store-bench"))
        #expect(!HelpText.usage.contains("--load-only"))
        #expect(throws: UsageError("unknown command 'probe'; commands are fetch, watch, serve, history, providers, check, new-plugin, completions")) {
            try Invocation.parse(["probe"])
        }
        let probe = try InvocationTests.parse(["__probe", "--plugin", "p.so", "--load-only"], as: ProbeCommand.self)
        #expect(probe?.loadOnly == true && probe?.pluginPath == "p.so")
        #expect(try InvocationTests.parse(["__probe", "--plugin", "p.so", "--parent", "42"], as: ProbeCommand.self)?.parent == 42)
    }

    @Test(arguments: [
        (["__probe"], "__probe needs --plugin PATH"),
        (["__probe", "--plugin", "p.so", "--parent", "x"], "--parent needs a process id, not 'x'"),
        (["new-plugin"], "new-plugin needs a NAME: pricehost new-plugin NAME --language c|swift"),
        (["new-plugin", "My-Market", "--language", "c"], "new-plugin: 'My-Market' is not a plugin name: 1 to 32 lower-case letters, digits or single '-' between them, starting with a letter"),
        (["new-plugin", "market", "--dir", "d"], "new-plugin needs --language c or --language swift"),
        (["new-plugin", "market", "--language", "rust"], "--language must be c or swift, not 'rust'"),
        (["new-plugin", "market", "extra", "--language", "c"], "unexpected argument 'extra'; options take the form --name value"),
        (["providers", "--format", "csv"], "providers supports --format text or json"),
        (["check", "--format=csv"], "check supports --format text or json"),
        (["providers", "--format", "csv", "--asset", "BTC"], "option --asset does not apply to 'providers'"),
        (["serve", "--format", "json"], "option --format does not apply to 'serve'"),
        (["fetch", "--asset", "BTC", "--allow-insecure-plugins=yes"], "option --allow-insecure-plugins takes no value"),
        (["fetch", "--conformance", "--asset", "BTC"], "option --conformance does not apply to 'fetch'"),
        (["watch", "--asset", "BTC", "--ticks", "0"], "--ticks must be a whole number from 1 to 1000000, not '0'"),
        (["watch", "--interval", "5"], "watch needs --asset CODE (or a list: --asset BTC,ETH)"),
        (["watch", "--asset", "BTC", "--deviation-bps", "25"], "--deviation-bps needs --stream: it says which pushed updates are printed"),
        (["watch", "--asset", "BTC", "--stream", "--deviation-bps", "-1"], "--deviation-bps must be a number of basis points from 0 to 10000, not '-1'"),
        (["watch", "--asset", "BTC", "--stream", "--heartbeat", "0.5s"],
         "--heartbeat must be a duration from 1s to 24h, a number with s, m, h or ms (e.g. 60s, 1.5m; a bare number is seconds), not '0.5s'"),
        (["watch", "--asset", "BTC", "--stream", "--max-age", "30x"],
         "--max-age must be a duration from 1ms to 8760h, a number with s, m, h or ms (e.g. 60s, 1.5m; a bare number is seconds), not '30x'"),
        (["fetch", "--asset", "BTC", "--aggregate", "mean"], "--aggregate takes median, not 'mean'"),
        (["fetch", "--asset", "BTC", "--provider", "a,a"], "--provider names 'a' twice"),
        (["check", "--plugin="], "--plugin needs a path"),
        (["new-plugin", "market", "--language", "c", "--dir="], "--dir needs a path"),
        (["--bogus", "--help"], "unknown option '--bogus'; see 'pricehost --help'"),
    ])
    func commandLinesRefusedAsBefore(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try Invocation.parse(arguments) }
    }

    @Test func watchPrintsJSONUnlessAskedOtherwise() throws {
        #expect(try InvocationTests.parse(["watch", "--asset", "BTC"], as: WatchCommand.self)?.format == .json)
        #expect(try InvocationTests.parse(["watch", "--asset", "BTC", "--format", "text"], as: WatchCommand.self)?.format == .text)
        #expect(try InvocationTests.parse(["fetch", "--asset", "BTC"], as: FetchCommand.self)?.format == .text)
    }

    @Test func theConfigPathIsTheCommandsOwn() throws {
        #expect(try Invocation.parse(["serve", "--config", "/p.json"]).configPath == "/p.json")
        #expect(try Invocation.parse(["new-plugin", "market", "--language", "c"]).configPath == nil)
        #expect(try Invocation.parse(["--help"]).configPath == nil)
    }

    /// The text `--help` printed when it was written by hand (and `watch --stream`, `completions`, `history` and `watch --record` since);
    /// it is generated now, from the declarations.
    @Test func theGeneratedHelpIsTheHandWrittenOne() {
        #expect(HelpText.usage == Self.handWrittenHelp)
    }

    static let handWrittenHelp = """
        pricehost: a plugin-based price engine

        USAGE
          pricehost fetch --asset CODE[,CODE...] [--provider NAME[,NAME...]] [--currency CODE] [--max-age DURATION] [--format text|json|csv]
          pricehost watch --asset CODE[,CODE...] [--interval SECONDS (0.1 to 86400)] [--ticks N] [--provider NAME[,NAME...]] [--max-age DURATION] [--format json|csv|text] [--record]
          pricehost watch --asset CODE[,CODE...] --stream [--ticks N] [--provider NAME[,NAME...]] [--format json|csv|text] [--aggregate median] [--record] [--deviation-bps BPS] [--heartbeat DURATION] [--max-age DURATION]
          pricehost serve [--listen HOST:PORT (default 127.0.0.1:8480)]   HTTP: GET / (a board), /v1/prices, /v1/stream, /v1/history, /v1/candles, /v1/price, /v1/twap, /v1/board, POST / (Chainlink), /metrics, /healthz, /readyz
          pricehost history --asset CODE [--provider NAME] [--aggregate median] [--currency CODE] [--interval 1m|5m|15m|1h|4h|1d] [--from TIME] [--to TIME] [--fill previous] [--format text|json|csv]
          pricehost history --asset CODE --at TIME [--provider NAME] [--aggregate median] [--format text|json|csv]   the last price at or before TIME
          pricehost history --asset CODE --twap WINDOW [--at TIME] [--provider NAME] [--aggregate median] [--format text|json|csv]   the TWAP over the WINDOW before --at (default now)
          pricehost providers [--format text|json]
          pricehost check [--format text|json]
          pricehost check --plugin PATH [--config PATH]     conformance check of one plugin (PLUGINS.md)
          pricehost new-plugin NAME --language c|swift [--dir DIR]   write a plugin to start from (default DIR: ./NAME)
          pricehost completions bash|zsh|fish   print the shell's tab-completion script
          pricehost --help | --version

        OPTIONS (every command but new-plugin and completions takes --config)
          --config PATH     the config file; default: $PRICEHOST_CONFIG, ./plugins.json,
                            ~/.config/pricehost/plugins.json, /etc/pricehost/plugins.json
          --asset CODES     asset codes, comma-separated (2 to 10 letters or digits)
          --provider NAME   who answers; default: assets.CODE.provider, then defaults.provider
          --currency CODE   quote currency; default: defaults.currency, then USD
          --format FORMAT   text (default), json (one object per line) or csv
          --aggregate median  (fetch, watch) ask every provider of the asset at once (--provider a,b,c, else
                            assets.CODE.providers) and print the median, min, max and spread; a median of
                            one source comes with a warning saying why the others failed; (history) the
                            medians serve and watch --record kept
          --max-age DURATION  (fetch, watch) refuse a quote older than DURATION (30s, 500ms, 1.5m, 1h), to the
                            millisecond from the venue's time: the asset fails with a line naming its age;
                            (watch --stream) the pair is said to be stale, once until a fresh price
          --allow-insecure-plugins
                            load plugin files others could replace (local development only)
          --stream          print each price as the venues' WebSocket feeds push it, instead of polling every --interval
          --record          (watch) keep each quote and median it prints in the quote store
          --from TIME       (history) the first candle's start, ISO 8601 (2026-11-27T12:00:00Z);
                            default: a day before --to
          --to TIME         (history) the last candle's start at the latest; default: now
          --fill previous   (history) a candle for each window with no quote: the previous close, count 0
          --at TIME         (history) the price at TIME, ISO 8601; with --twap, the end of its window
          --twap WINDOW     (history) the time-weighted average over the WINDOW (90s, 15m, 1h, 7d)
                            before --at, else before now
          --language c|swift  (new-plugin) C with a Makefile (build: make), or a Swift package
                            (build: swift build -c release), on this installation's header or ProviderABI
          --dir DIR         (new-plugin) where to write it; must be new or empty

        EXIT STATUS
          0 success   1 fetch failed   2 usage error   3 config or plugin error
          4 some of several assets failed   5 serve cannot listen (address in use, …)
          128+N check ended by signal N, after killing its probes

        ENVIRONMENT
          PRICEHOST_CONFIG        config file when --config is not given
          PRICEHOST_PLUGIN_PATH   extra directories (colon-separated) to find plugins named in "plugins"
          PRICEHOST_LOG           debug, info, warning (default) or error
        """
}
