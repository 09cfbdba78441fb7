import PriceHostCore

/// What `watch` takes.
extension WatchCommand {
    static let configuration = CommandConfiguration(
        name: "watch",
        summary: "print the assets' prices every --interval seconds, or as the venues' feeds push them (--stream), a line each",
        usage: [
            UsageLine("--asset", "[--interval]", "[--ticks]", "[--provider]", "[--max-age]", "[--format]", "[--record]"),
            UsageLine("--asset", "--stream", "[--ticks]", "[--provider]", "[--format]", "[--aggregate]", "[--record]",
                      "[--deviation-bps]", "[--heartbeat]", "[--max-age]"),
        ])

    /// json first: it is watch's default.
    static let formats: [Invocation.Format] = [.json, .csv, .text]

    static let options: [Option<WatchCommand>] = [
        .config(\.plugins), .asset(\.quotes), .provider(\.quotes), .currency(\.quotes),
        .format(\.format, supported: formats), .aggregate(\.quotes), .maxAge(\.quotes),
        Option("--interval", value: "SECONDS", synopsis: "SECONDS (0.1 to 86400)", help: nil, manual: OptionSpec.intervalManual) { watch, value throws(UsageError) in
            guard let milliseconds = Durations.milliseconds(value), (100...86_400_000).contains(milliseconds) else {
                throw UsageError("--interval must be a number of seconds from 0.1 to 86400 (at most 3 decimals), not '\(value)'")
            }
            watch.intervalMilliseconds = milliseconds
        },
        Option("--ticks", value: "N", help: nil,
               manual: "(watch) stop after N fetches, or with --stream after N lines; default: run until SIGINT or SIGTERM") { watch, value throws(UsageError) in
            guard let count = Int(value), (1...1_000_000).contains(count) else {
                throw UsageError("--ticks must be a whole number from 1 to 1000000, not '\(value)'")
            }
            watch.ticks = count
        },
        .flag("--stream", help: "print each price as the venues' WebSocket feeds push it, instead of polling every --interval", \.stream),
        .flag("--record", help: "(watch) keep each quote and median it prints in the quote store", \.record),
        Option("--deviation-bps", value: "BPS", help: nil,
               manual: "(watch --stream) print a price only when it moved at least BPS basis points (inclusive; 25 = 0.25 %) from the last one printed for its pair; 0 to 10000") { watch, value throws(UsageError) in
            guard let bps = DeliveryRule.bps(value) else {
                throw UsageError("--deviation-bps must be a number of basis points from 0 to 10000, not '\(value)'")
            }
            watch.delivery.deviationBps = bps
        },
        Option("--heartbeat", value: "DURATION", help: nil,
               manual: "(watch --stream) print a pair's latest price again when DURATION (e.g. 60s; 1 s to 24 h) passed with nothing printed for it") { watch, value throws(UsageError) in
            guard let heartbeat = DurationOption.parse(value), heartbeat >= .seconds(1), heartbeat <= .seconds(86_400) else {
                throw UsageError(DurationOption.rule("--heartbeat", range: "1s to 24h") + ", not '\(value)'")
            }
            watch.delivery.heartbeat = heartbeat
        },
        .allowInsecurePlugins(\.plugins),
    ]

    func validate() throws(UsageError) {
        try quotes.requireAssets(for: Self.configuration.name)
        // --max-age holds for both: polled, the asset fails naming the age; streamed, the pair is said to be stale once.
        if !stream, let flag = delivery.deviationBps != nil ? "--deviation-bps" : delivery.heartbeat != nil ? "--heartbeat" : nil {
            throw UsageError("\(flag) needs --stream: it says which pushed updates are printed")
        }
    }
}
