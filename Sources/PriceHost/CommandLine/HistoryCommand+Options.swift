import PriceHostCore
import PriceHostStore

/// What `history` takes. Each value is stored as typed; ``validate()`` hands them to ``HistoryQuery/parse(_:kind:)``,
/// which checks them for `/v1/candles`, `/v1/price` and `/v1/twap` too, so a bad one is refused in the same words
/// (naming the option here, the parameter there).
extension HistoryCommand {
    static let configuration = CommandConfiguration(
        name: "history",
        summary: "print what the quote store kept of an asset: candles, the price at a time, or a time-weighted average (TWAP)",
        usage: [
            UsageLine("--asset", "[--provider]", "[--aggregate]", "[--currency]", "[--interval]", "[--from]", "[--to]", "[--fill]", "[--format]"),
            UsageLine("--asset", "--at", "[--provider]", "[--aggregate]", "[--format]", note: "the last price at or before TIME"),
            UsageLine("--asset", "--twap", "[--at]", "[--provider]", "[--aggregate]", "[--format]", note: "the TWAP over the WINDOW before --at (default now)"),
        ])

    static let formats: [Invocation.Format] = [.text, .json, .csv]

    /// The options only candles take: refused with `--at` or `--twap`.
    static let candleOptions = ["--interval", "--from", "--to", "--fill"]

    static let options: [Option<HistoryCommand>] = [
        .config(\.plugins),
        Option("--asset", value: "CODE", help: nil) { history, value throws(UsageError) in
            // fetch and watch take a list; the store answers one series at a time.
            guard !value.contains(",") else { throw UsageError("history takes one --asset, not a list ('\(value)')") }
            history.asset = value
        },
        Option("--provider", value: "NAME", help: nil, completes: .providers) { $0.provider = $1 },
        Option("--aggregate", value: "median", help: nil, completes: .choices(["median"])) { $0.aggregate = $1 },
        Option(spec: QuoteOptions.currency.spec) { $0.currency = $1 },
        Option("--interval", value: "INTERVAL", synopsis: CandleInterval.allCases.map(\.rawValue).joined(separator: "|"), help: nil,
               manual: OptionSpec.intervalManual, completes: .choices(CandleInterval.allCases.map(\.rawValue))) { $0.interval = $1 },
        Option("--from", value: "TIME", help: "(history) the first candle's start, ISO 8601 (2026-11-27T12:00:00Z);\ndefault: a day before --to") {
            $0.from = $1
        },
        Option("--to", value: "TIME", help: "(history) the last candle's start at the latest; default: now") { $0.to = $1 },
        Option("--fill", value: "previous", help: "(history) a candle for each window with no quote: the previous close, count 0",
               completes: .choices(["previous"])) { $0.fill = $1 },
        Option("--at", value: "TIME", help: "(history) the price at TIME, ISO 8601; with --twap, the end of its window") { $0.at = $1 },
        Option("--twap", value: "WINDOW", help: "(history) the time-weighted average over the WINDOW (90s, 15m, 1h, 7d)\nbefore --at, else before now") {
            $0.twap = $1
        },
        .format(\.format, supported: formats),
    ]

    mutating func validate() throws(UsageError) {
        try format.require(Self.formats, by: Self.configuration.name)
        guard asset != nil else { throw UsageError("history needs --asset CODE") }
        if provider != nil, aggregate != nil { throw UsageError("history takes --provider or --aggregate median, not both") }
        let kind: HistoryQuery.Kind = twap != nil ? .twap : at != nil ? .price : .candles
        if kind != .candles {
            let given = zip(Self.candleOptions, [interval, from, to, fill]).filter { $0.1 != nil }.map(\.0)
            if let first = given.first {
                throw UsageError("\(first) is for candles; it does not go with \(kind == .twap ? "--twap" : "--at")")
            }
        }
        do throws(HistoryQuery.Problem) {
            query = try HistoryQuery.parse(parameters, kind: kind)
        } catch {
            throw Self.usageError(error.message, parameter: error.parameter)
        }
    }

    /// The options given, as the HTTP routes' parameters (`--twap` is `window`).
    var parameters: [(name: String, value: String)] {
        let named: [(String, String?)] = [
            ("asset", asset), ("currency", currency), ("provider", provider), ("aggregate", aggregate), ("interval", interval),
            ("from", from), ("to", to), ("fill", fill), ("at", at), ("window", twap),
        ]
        return named.compactMap { name, value in value.map { (name, $0) } }
    }

    /// The option that sets `parameter`.
    static func option(for parameter: String) -> String {
        parameter == "window" ? "--twap" : "--" + parameter
    }

    /// A message of the store's, which names a parameter, naming the option instead: `--at must be …` where it
    /// starts with the parameter (`at must be …`), else `--interval: unknown interval …`.
    static func usageError(_ message: String, parameter: String) -> UsageError {
        let option = option(for: parameter)
        if message.hasPrefix(parameter + " ") { return UsageError(option + message.dropFirst(parameter.count)) }
        return UsageError("\(option): \(message)")
    }
}
