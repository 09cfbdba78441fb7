import PriceHostCore
import PriceHostStore
import ProviderABI

/// `--config` and `--allow-insecure-plugins`: every command that loads plugins takes them.
struct PluginOptions: Sendable, Equatable {
    /// `--config PATH`.
    var configPath: String?
    /// `--allow-insecure-plugins`: load plugin files others could replace, with a warning.
    var allowInsecurePlugins = false

    static let config = Option<Self>("--config", value: "PATH", help: """
        the config file; default: $PRICEHOST_CONFIG, ./plugins.json,
        ~/.config/pricehost/plugins.json, /etc/pricehost/plugins.json
        """, completes: .file) { options, value throws(UsageError) in
        guard !value.isEmpty else { throw UsageError("--config needs a path") }
        options.configPath = value
    }

    static let allowInsecure = Option<Self>.flag("--allow-insecure-plugins", help: "load plugin files others could replace (local development only)",
                                                 \.allowInsecurePlugins)
}

/// `--asset`, `--provider`, `--currency` and `--aggregate`: what `fetch` and `watch` ask for.
struct QuoteOptions: Sendable, Equatable {
    /// How a routing error names where an unknown provider came from.
    static let providerSource = "--provider"

    /// `--asset`, split at commas, upper case, in the order given, without repeats.
    var assets: [String] = []
    /// `--provider`: one provider, or several separated by commas, tried in order.
    var providers: [String]?
    /// `--currency`, upper case.
    var currency: String?
    /// `--aggregate median`: ask every provider and report the median, range and spread.
    var aggregateMedian = false
    /// `--max-age`: a quote older than this (strictly) is refused, in milliseconds.
    var maxAgeMilliseconds: Int?

    /// `--max-age` as the quote service takes it.
    var maxAge: MaxAge? { maxAgeMilliseconds.map { MaxAge(milliseconds: $0, name: "--max-age") } }

    static let asset = Option<Self>("--asset", value: "CODES", synopsis: "CODE[,CODE...]",
                                    help: "asset codes, comma-separated (2 to 10 letters or digits)", repeatable: true) { options, value throws(UsageError) in
        for part in value.split(separator: ",", omittingEmptySubsequences: false) {
            let text = String(part)
            guard let code = AssetCode.normalized(text) else {
                throw UsageError("--asset \(JSONValue.quoted(text)) is not an asset code (2 to 10 letters or digits)")
            }
            if !options.assets.contains(code) { options.assets.append(code) }
        }
    }

    static let provider = Option<Self>("--provider", value: "NAME", synopsis: "NAME[,NAME...]",
                                       help: "who answers; default: assets.CODE.provider, then defaults.provider",
                                       completes: .providers) { options, value throws(UsageError) in
        var names: [String] = []
        for name in value.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            guard ProviderName.isValid(name) else {
                throw UsageError("--provider '\(name)' is not a provider name (\(ProviderName.rule))")
            }
            guard !names.contains(name) else { throw UsageError("--provider names '\(name)' twice") }
            names.append(name)
        }
        options.providers = names
    }

    static let currency = Option<Self>("--currency", value: "CODE",
                                       help: "quote currency; default: defaults.currency, then USD") { options, value throws(UsageError) in
        guard let code = AssetCode.normalized(value) else {
            throw UsageError("--currency \(JSONValue.quoted(value)) is not a currency code (2 to 10 letters or digits)")
        }
        options.currency = code
    }

    static let aggregate = Option<Self>("--aggregate", value: "median", help: """
        (fetch, watch) ask every provider of the asset at once (--provider a,b,c, else
        assets.CODE.providers) and print the median, min, max and spread; a median of
        one source comes with a warning saying why the others failed; (history) the
        medians serve and watch --record kept
        """, completes: .choices(["median"])) { options, value throws(UsageError) in
        guard value == "median" else { throw UsageError("--aggregate takes median, not '\(value)'") }
        options.aggregateMedian = true
    }

    static let maxAge = Option<Self>("--max-age", value: "DURATION", help: """
        (fetch, watch) refuse a quote older than DURATION (30s, 500ms, 1.5m, 1h), to the
        millisecond from the venue's time: the asset fails with a line naming its age;
        (watch --stream) the pair is said to be stale, once until a fresh price
        """) { options, value throws(UsageError) in
        guard let age = DurationOption.parse(value), age > .zero, age <= .seconds(31_536_000) else {
            throw UsageError(DurationOption.rule("--max-age", range: "1ms to 8760h") + ", not '\(value)'")
        }
        options.maxAgeMilliseconds = Int(Durations.milliseconds(of: age))
    }

    /// `fetch` and `watch` need at least one asset.
    func requireAssets(for command: String) throws(UsageError) {
        if assets.isEmpty { throw UsageError("\(command) needs --asset CODE (or a list: --asset BTC,ETH)") }
    }
}

extension Option {
    /// `--config PATH`, stored in the command's ``PluginOptions``.
    static func config(_ group: WritableKeyPath<Root, PluginOptions> & Sendable) -> Option { PluginOptions.config.stored(in: group) }
    /// `--allow-insecure-plugins`, stored in the command's ``PluginOptions``.
    static func allowInsecurePlugins(_ group: WritableKeyPath<Root, PluginOptions> & Sendable) -> Option {
        PluginOptions.allowInsecure.stored(in: group)
    }
    /// `--asset CODES`, stored in the command's ``QuoteOptions``.
    static func asset(_ group: WritableKeyPath<Root, QuoteOptions> & Sendable) -> Option { QuoteOptions.asset.stored(in: group) }
    /// `--provider NAME[,NAME...]`, stored in the command's ``QuoteOptions``.
    static func provider(_ group: WritableKeyPath<Root, QuoteOptions> & Sendable) -> Option { QuoteOptions.provider.stored(in: group) }
    /// `--currency CODE`, stored in the command's ``QuoteOptions``.
    static func currency(_ group: WritableKeyPath<Root, QuoteOptions> & Sendable) -> Option { QuoteOptions.currency.stored(in: group) }
    /// `--aggregate median`, stored in the command's ``QuoteOptions``.
    static func aggregate(_ group: WritableKeyPath<Root, QuoteOptions> & Sendable) -> Option { QuoteOptions.aggregate.stored(in: group) }
    /// `--max-age AGE`, stored in the command's ``QuoteOptions``.
    static func maxAge(_ group: WritableKeyPath<Root, QuoteOptions> & Sendable) -> Option { QuoteOptions.maxAge.stored(in: group) }

    /// `--format`: any ``Invocation/Format`` parses; the usage line shows those the command
    /// `supports`, in that order, and its `validate()` refuses the others (``Invocation/Format/require(_:by:)``).
    static func format(_ property: WritableKeyPath<Root, Invocation.Format> & Sendable, supported: [Invocation.Format]) -> Option {
        Option("--format", value: "FORMAT", synopsis: supported.map(\.rawValue).joined(separator: "|"),
               help: "text (default), json (one object per line) or csv",
               completes: .choices(supported.map(\.rawValue))) { root, value throws(UsageError) in
            guard let format = Invocation.Format(rawValue: value) else {
                throw UsageError("--format must be text, json or csv, not '\(value)'")
            }
            root[keyPath: property] = format
        }
    }
}

extension Invocation.Format {
    /// Refuses a format `command` does not support (`providers --format csv`).
    func require(_ supported: [Self], by command: String) throws(UsageError) {
        guard !supported.contains(self) else { return }
        throw UsageError("\(command) supports --format \(HelpText.list(supported.map(\.rawValue), or: true))")
    }
}

extension OptionSpec {
    /// What the man page says of `--interval`, which `watch` (seconds) and `history` (a candle's width) both take:
    /// the page has one entry per option name.
    static let intervalManual = "(watch) seconds between fetches, 0.1 to 86400, each with up to 10% jitter; default 30; "
        + "(history) the candles' width: \(CandleInterval.names); default 1m"
}
