import ConcurrencyHelpers
import FoundationEssentials
import Glibc
import PriceHostCore
import PriceHostHTTP
import PriceHostStore
import ProviderABI

/// `pricehost watch --stream`: one line per update as the venues' feeds push it.
///
/// Each asset is routed as `fetch` routes it (`--provider`, else the config); every provider
/// on the route streams that pair. A stale feed falls back to REST by itself (its lines say
/// `"source":"rest"`). With `--aggregate median`, each update recomputes the median over every
/// venue's latest fresh quote for the pair, and a line is printed when the median changes.
/// `--ticks N` stops after N lines; SIGINT or SIGTERM stops it with status 0.
extension WatchCommand {
    func watchStreams(_ host: PluginHost, _ recorder: WatchRecorder?, _ context: CommandContext) async -> ExitStatus {
        let config = host.config, diagnostics = context.diagnostics
        for failure in host.catalog.report.failures { diagnostics.warning(failure.description) }
        let service = QuoteService(container: host.container, catalog: host.catalog, warn: { [diagnostics] in diagnostics.warning($0) })
        let currency = quotes.currency ?? config.defaultCurrency
        let routing = service.routes(for: quotes.assets, explicitProviders: quotes.providers)
        if let error = routing.failures.first?.error {
            diagnostics.error(error.message(providersNamedBy: QuoteOptions.providerSource))
            if case .config = error { return .configOrPlugin }
            return .usage
        }
        let routes = routing.routes
        let feeds = CompositionRoot.makeFeeds(catalog: host.catalog, container: host.container, config: config, diagnostics: diagnostics,
                                              libcurl: context.environment["PRICEHOST_LIBCURL"] ?? LibCurl.defaultName)
        let withoutFeed = Set(routes.flatMap(\.providers)).filter { !feeds.hasFeed($0) }.sorted()
        guard withoutFeed.isEmpty else {
            let names = withoutFeed.joined(separator: ", ")
            let offered = feeds.providers.isEmpty ? "no loaded provider has one" : "providers with a feed: \(feeds.providers.joined(separator: ", "))"
            diagnostics.error("watch --stream: \(names) \(withoutFeed.count == 1 ? "has" : "have") no WebSocket feed (\(offered)); "
                + "watch \(withoutFeed.count == 1 ? "it" : "them") without --stream to poll")
            return .usage
        }

        let stop = StopFlag()
        let printer = StreamPrinter(format: format, limit: ticks, output: context.output, stop: stop, recorder: recorder)
        // Only with --deviation-bps, --heartbeat or --max-age: otherwise every update is printed as it comes.
        var rule = delivery
        if let milliseconds = quotes.maxAgeMilliseconds { rule.maxAge = .milliseconds(milliseconds) }
        let gate = rule.isEmpty ? nil : StreamGate(rule: rule, clock: context.clock, printer: printer, warn: { [diagnostics] in diagnostics.warning($0) })
        let header = format == .csv ? (quotes.aggregateMedian ? AggregateFormatter.header : StreamFormatter.header) : nil
        let subscriptions = Lock<[FeedSubscription]>([])
        let services: [any Service] = [
            ServiceStep("the feeds") { await feeds.stop() },
            ServiceStep("the subscriptions", run: { [routes] in
                // Once the signals are handled, as every line after it.
                if let header { context.output(header) }
                for route in routes { subscriptions.withLock { $0 += subscribe(route, currency: currency, feeds, config, printer, gate) } }
            }, shutdown: {
                for subscription in subscriptions.withLock({ $0 }) { subscription.cancel() }
                gate?.stop()
            }),
        ]
        // watch's own work is to wait: the subscriptions print, until --ticks lines or a stop signal.
        return await Self.run(ServiceGroup(services: services, signals: context.signals, onStop: Self.onStop(stop, recorder, context.diagnostics)), context) { _ in
            while !stop.isSet {
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// Subscribes `route`'s pair from each of its providers: each update printed, or taken into its median.
    private func subscribe(_ route: QuoteService.Route, currency: String, _ feeds: any QuoteFeeds, _ config: Config,
                           _ printer: StreamPrinter, _ gate: StreamGate?) -> [FeedSubscription] {
        let pair = QuoteRequest(asset: route.asset, currency: currency)
        let median = quotes.aggregateMedian ? StreamMedian(pair: pair, providers: route.providers, config: config, printer: printer, gate: gate) : nil
        let format = format
        return route.providers.compactMap { provider in
            feeds.subscribe(provider: provider, pair: pair) { update in
                if let median {
                    median.take(update)
                } else {
                    let line = StreamFormatter.line(update, format: format)
                    let stored = StoredQuote(update)
                    if let gate {
                        gate.offer("\(pair.asset)-\(pair.currency) \(provider)", label: "\(pair.asset)-\(pair.currency) from \(provider)",
                                   amount: update.quote.amount, timestamp: update.quote.timestamp, line: line, recording: stored)
                    } else {
                        printer.print(line, recording: stored)
                    }
                }
            }
        }
    }
}

/// Prints lines until `--ticks` of them have been printed, then sets the stop flag; with `--record`,
/// each line's quote is recorded first (a line the recorder no longer takes is not printed).
final class StreamPrinter: Sendable {
    let format: OutputFormat
    private let limit: Int?
    private let output: @Sendable (String) -> Void
    private let stop: WatchCommand.StopFlag
    private let recorder: WatchRecorder?
    private let printed = Lock(0)

    init(format: OutputFormat, limit: Int?, output: @escaping @Sendable (String) -> Void, stop: WatchCommand.StopFlag,
         recorder: WatchRecorder? = nil) {
        self.format = format
        self.limit = limit
        self.output = output
        self.stop = stop
        self.recorder = recorder
    }

    func print(_ line: String, recording quote: @autoclosure () -> StoredQuote) {
        printed.withLock { count in
            guard !stop.isSet, count < (limit ?? Int.max) else { return }
            guard recorder?.record(quote()) != false else { return }
            count += 1
            output(line)
            if let limit, count >= limit { stop.set() }
        }
    }
}

/// `--aggregate median` over streams: each venue's latest quote for one pair, the median of
/// those still fresh, printed when it changes.
///
/// Fresh: received within the venue's `staleAfterSeconds` plus its `fallbackIntervalSeconds`
/// (a live feed or its REST fallback keeps it so), and within `maxAgeSeconds` of the venue's
/// time when the asset or the provider sets one.
final class StreamMedian: Sendable {
    private let pair: QuoteRequest
    private let providers: [String]
    private let freshness: [String: Duration]
    private let maxAge: [String: Int]
    private let maxDeviationBps: Decimal?
    private let printer: StreamPrinter
    private let gate: StreamGate?

    private struct State {
        var latest: [String: StreamUpdate] = [:]
        var lastMedian: Decimal?
    }

    private let state = Lock(State())

    init(pair: QuoteRequest, providers: [String], config: Config, printer: StreamPrinter, gate: StreamGate? = nil) {
        self.pair = pair
        self.providers = providers
        self.printer = printer
        self.gate = gate
        var freshness: [String: Duration] = [:]
        var maxAge: [String: Int] = [:]
        for provider in providers {
            let policy = config.policy(for: provider)
            freshness[provider] = policy.stream.staleAfter + policy.stream.fallbackInterval
            if let seconds = config.assets[pair.asset]?.maxAgeSeconds ?? policy.maxAgeSeconds { maxAge[provider] = seconds }
        }
        self.freshness = freshness
        self.maxAge = maxAge
        maxDeviationBps = config.assets[pair.asset]?.maxDeviationBps.map { Decimal($0) }
    }

    func take(_ update: StreamUpdate) {
        let now = Date()
        state.withLock { state in
            state.latest[update.quote.provider] = update
            var excluded: [AggregateQuote.Exclusion] = []
            let fresh = providers.compactMap { provider -> StreamUpdate? in
                guard let latest = state.latest[provider] else {
                    excluded.append(.init(provider: provider, why: "failed: no quote from it yet"))
                    return nil
                }
                let window = Durations.secondsValue(freshness[provider] ?? .seconds(7))
                let silent = now.timeIntervalSince(latest.receivedAt)
                guard silent <= window else {
                    excluded.append(.init(provider: provider, why: "stale: nothing from it for \(Int(silent)) s"))
                    return nil
                }
                let age = now.timeIntervalSince(latest.quote.timestamp)
                if let seconds = maxAge[provider], age > Double(seconds) {
                    excluded.append(.init(provider: provider, why: AggregateQuote.Exclusion.stale(ageSeconds: Int(age), maxAgeSeconds: seconds)))
                    return nil
                }
                return latest
            }
            guard !fresh.isEmpty else { return }
            var aggregate = AggregateQuote(sources: fresh.map(\.quote), maxDeviationBps: maxDeviationBps)
            aggregate.excluded = excluded
            guard aggregate.median != state.lastMedian else { return }
            state.lastMedian = aggregate.median
            let source: QuoteSource = fresh.contains { $0.source == .rest } ? .rest : .stream
            let line = StreamFormatter.line(aggregate, source: source, receivedAt: update.receivedAt, format: printer.format)
            let stored = StoredQuote(median: aggregate, receivedAt: update.receivedAt, source: source)
            if let gate {
                gate.offer("\(pair.asset)-\(pair.currency) median", label: "\(pair.asset)-\(pair.currency)'s median",
                           amount: aggregate.median, timestamp: aggregate.timestamp, line: line, recording: stored)
            } else {
                printer.print(line, recording: stored)
            }
        }
    }
}
