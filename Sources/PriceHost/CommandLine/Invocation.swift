import PriceHostCore
import PriceHostService
import ProviderABI

/// A parsed command line.
struct Invocation: Sendable, Equatable {
    /// The subcommand.
    enum Command: String, Sendable, CaseIterable {
        case fetch, watch, serve, providers, check, help, version
        /// `new-plugin NAME --language c|swift [--dir DIR]`: writes a plugin from the templates.
        case newPlugin = "new-plugin"
        /// Internal: `check` runs each plugin in a child `pricehost __probe --plugin PATH`.
        case probe = "__probe"
    }

    /// The output format of data on stdout.
    typealias Format = OutputFormat

    /// What to run.
    var command: Command
    /// `--config PATH`.
    var configPath: String?
    /// `--format`; text when absent (json for `watch`).
    var format: Format = .text
    /// True when `--format` was given.
    var formatWasGiven = false
    /// `--aggregate median`: ask every provider and report the median, range and spread.
    var aggregateMedian = false
    /// `watch --interval SECONDS` (default 30), in milliseconds: 0.1 s to 86400 s, to the millisecond.
    var intervalMilliseconds = 30_000
    /// `watch --ticks N`: stop after N ticks (default: run until a signal).
    var ticks: Int?
    /// `--provider`: one provider, or several separated by commas, tried in order.
    var providers: [String]?
    /// `--asset`, split at commas, upper case, in the order given, without repeats.
    var assets: [String] = []
    /// `--currency`, upper case.
    var currency: String?
    /// `serve --listen HOST:PORT`: overrides `serve.listen`.
    var listen: ListenAddress?
    /// `--allow-insecure-plugins`: load plugin files others could replace, with a warning.
    var allowInsecurePlugins = false
    /// `check --plugin PATH`: the conformance check of one plugin file (also the probe's target).
    var pluginPath: String?
    /// Internal (`__probe`): also run the conformance fetches.
    var conformance = false
    /// Internal (`__probe`): hand the plugin settings with an unknown key.
    var badSettings = false
    /// Internal (`__probe`): load the plugin and say what it is, without fetching.
    var loadOnly = false
    /// `new-plugin NAME`: the provider name of the plugin to write.
    var newPluginName: String?
    /// `new-plugin --language`.
    var language: PluginScaffold.Language?
    /// `new-plugin --dir`: where to write it; default `./NAME`.
    var directory: String?

    /// The options each command takes.
    static let options: [Command: Set<String>] = [
        .fetch: ["--config", "--format", "--provider", "--asset", "--currency", "--aggregate", "--allow-insecure-plugins"],
        .watch: ["--config", "--format", "--provider", "--asset", "--currency", "--aggregate", "--interval", "--ticks", "--allow-insecure-plugins"],
        .serve: ["--config", "--listen", "--allow-insecure-plugins"],
        .providers: ["--config", "--format", "--allow-insecure-plugins"],
        .check: ["--config", "--format", "--plugin", "--allow-insecure-plugins"],
        .probe: ["--config", "--plugin", "--allow-insecure-plugins", "--conformance", "--bad-settings", "--load-only"],
        .newPlugin: ["--language", "--dir"],
        .help: [],
        .version: [],
    ]

    /// A number of seconds with up to three decimals, in milliseconds (``Durations/milliseconds(_:)``).
    static func milliseconds(_ text: String) -> Int? {
        Durations.milliseconds(text)
    }

    /// Parses the arguments after the program name.
    ///
    /// Options may come before or after the command, as `--name value` or
    /// `--name=value`. Asset and currency codes are checked here, before
    /// anything else happens.
    /// - Throws: ``UsageError`` naming the argument that is wrong.
    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var command: Command?
        var newPluginName: String?
        var values: [(name: String, value: String)] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "-h", "--help", "help":
                return Invocation(command: .help)
            case "-V", "--version":
                return Invocation(command: .version)
            case _ where argument.hasPrefix("-"):
                var name = argument
                var value: String?
                if let equals = argument.firstIndex(of: "=") {
                    name = String(argument[..<equals])
                    value = String(argument[argument.index(after: equals)...])
                }
                guard knownOptions.contains(name) else {
                    throw UsageError("unknown option '\(name)'; see 'pricehost --help'")
                }
                if flags.contains(name) {
                    guard value == nil else { throw UsageError("option \(name) takes no value") }
                    values.append((name, ""))
                    continue
                }
                if value == nil {
                    guard index < arguments.count else { throw UsageError("option \(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                values.append((name, value ?? ""))
            default:
                if command == .newPlugin, newPluginName == nil {
                    newPluginName = argument
                    continue
                }
                guard command == nil else {
                    throw UsageError("unexpected argument '\(argument)'; options take the form --name value")
                }
                guard let parsed = Command(rawValue: argument), parsed != .help, parsed != .version else {
                    throw UsageError("unknown command '\(argument)'; commands are fetch, watch, serve, providers, check, new-plugin")
                }
                command = parsed
            }
        }
        guard let command else { throw UsageError("no command given; try 'pricehost fetch --asset BTC' or 'pricehost --help'") }
        var invocation = Invocation(command: command)
        var seen = Set<String>()
        for (name, value) in values {
            guard options[command, default: []].contains(name) else {
                throw UsageError("option \(name) does not apply to '\(command.rawValue)'")
            }
            guard name == "--asset" || seen.insert(name).inserted else { throw UsageError("option \(name) is given twice") }
            try invocation.apply(name, value)
        }
        if command == .probe, invocation.pluginPath == nil {
            throw UsageError("__probe needs --plugin PATH")
        }
        if command == .newPlugin {
            guard let name = newPluginName else { throw UsageError("new-plugin needs a NAME: pricehost new-plugin NAME --language c|swift") }
            if let problem = PluginScaffold.problem(withName: name) { throw UsageError("new-plugin: \(problem)") }
            guard invocation.language != nil else { throw UsageError("new-plugin needs --language c or --language swift") }
            invocation.newPluginName = name
        }
        if command == .fetch || command == .watch, invocation.assets.isEmpty {
            throw UsageError("\(command.rawValue) needs --asset CODE (or a list: --asset BTC,ETH)")
        }
        if command == .watch, !invocation.formatWasGiven {
            invocation.format = .json
        }
        return invocation
    }

    static let knownOptions: Set<String> = ["--config", "--format", "--provider", "--asset", "--currency", "--plugin",
                                            "--interval", "--ticks", "--aggregate", "--allow-insecure-plugins",
                                            "--conformance", "--bad-settings", "--load-only", "--language", "--dir", "--listen"]
    /// Options that take no value.
    static let flags: Set<String> = ["--allow-insecure-plugins", "--conformance", "--bad-settings", "--load-only"]

    private mutating func apply(_ name: String, _ value: String) throws(UsageError) {
        switch name {
        case "--config":
            guard !value.isEmpty else { throw UsageError("--config needs a path") }
            configPath = value
        case "--format":
            guard let parsed = Format(rawValue: value) else {
                throw UsageError("--format must be text, json or csv, not '\(value)'")
            }
            format = parsed
            formatWasGiven = true
        case "--provider":
            var names: [String] = []
            for name in value.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
                guard ProviderName.isValid(name) else {
                    throw UsageError("--provider '\(name)' is not a provider name (\(ProviderName.rule))")
                }
                guard !names.contains(name) else { throw UsageError("--provider names '\(name)' twice") }
                names.append(name)
            }
            providers = names
        case "--asset":
            for part in value.split(separator: ",", omittingEmptySubsequences: false) {
                let text = String(part)
                guard let code = AssetCode.normalized(text) else {
                    throw UsageError("--asset \(JSONValue.quoted(text)) is not an asset code (2 to 10 letters or digits)")
                }
                if !assets.contains(code) { assets.append(code) }
            }
        case "--aggregate":
            guard value == "median" else { throw UsageError("--aggregate takes median, not '\(value)'") }
            aggregateMedian = true
        case "--interval":
            guard let milliseconds = Self.milliseconds(value), (100...86_400_000).contains(milliseconds) else {
                throw UsageError("--interval must be a number of seconds from 0.1 to 86400 (at most 3 decimals), not '\(value)'")
            }
            intervalMilliseconds = milliseconds
        case "--ticks":
            guard let count = Int(value), (1...1_000_000).contains(count) else {
                throw UsageError("--ticks must be a whole number from 1 to 1000000, not '\(value)'")
            }
            ticks = count
        case "--listen":
            guard let address = ListenAddress(value) else { throw UsageError("--listen \(ListenAddress.rule(value))") }
            listen = address
        case "--allow-insecure-plugins":
            allowInsecurePlugins = true
        case "--conformance":
            conformance = true
        case "--bad-settings":
            badSettings = true
        case "--load-only":
            loadOnly = true
        case "--plugin":
            guard !value.isEmpty else { throw UsageError("--plugin needs a path") }
            pluginPath = value
        case "--language":
            guard let parsed = PluginScaffold.Language(rawValue: value) else {
                throw UsageError("--language must be c or swift, not '\(value)'")
            }
            language = parsed
        case "--dir":
            guard !value.isEmpty else { throw UsageError("--dir needs a path") }
            directory = value
        case "--currency":
            guard let code = AssetCode.normalized(value) else {
                throw UsageError("--currency \(JSONValue.quoted(value)) is not a currency code (2 to 10 letters or digits)")
            }
            currency = code
        default:
            throw UsageError("unknown option '\(name)'")
        }
    }
}
