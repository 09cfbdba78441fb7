import Dispatch
import FoundationEssentials
import Glibc
import Injection
import PriceHostCore
import PriceHostStore
import ProviderABI
import Synchronization

/// `pricehost watch`: fetches the assets every `--interval` seconds (with
/// ±10% jitter, so many watchers do not beat in step) and writes one line
/// per quote; a failure is a line with an `error` field, and the loop goes
/// on. Each tick rescans `pluginDirectories`: a newly dropped `.so` serves
/// from that tick; a replaced or removed file keeps serving from memory (it
/// is never unloaded) and the log says a restart is needed. SIGINT or
/// SIGTERM stops it within a second, with status 0 and no half-written line.
struct WatchCommand: LoadsPlugins {
    var plugins = PluginOptions()
    var quotes = QuoteOptions()
    /// `--format`; json unless given.
    var format = Invocation.Format.json
    /// `--interval SECONDS` (default 30), in milliseconds: 0.1 s to 86400 s, to the millisecond.
    var intervalMilliseconds = 30_000
    /// `--ticks N`: stop after N ticks, or with `--stream` N lines (default: run until a signal).
    var ticks: Int?
    /// `--stream`: print what the feeds push (``WatchCommand+Stream``).
    var stream = false
    /// `--record`: keep what it prints in the quote store (``WatchRecorder``).
    var record = false
    /// `--deviation-bps`, `--heartbeat`, `--max-age` (with `--stream`): which updates are printed, per pair (``StreamGate``).
    var delivery = DeliveryRule()

    /// Set by SIGINT or SIGTERM.
    final class StopFlag: Sendable {
        private let stopped = Atomic<Bool>(false)
        var isSet: Bool { stopped.load(ordering: .acquiring) }
        func set() { stopped.store(true, ordering: .releasing) }
    }

    func run(in context: CommandContext) async -> ExitStatus {
        guard let config = context.loadConfig(for: self) else { return .configOrPlugin }
        // Before any plugin is loaded: a store that cannot be had ends the run before it starts.
        var recorder: WatchRecorder?
        if record {
            switch WatchRecorder.open(config: config, context) {
            case .success(let opened): recorder = opened
            case .failure(let unavailable):
                context.diagnostics.error(unavailable.description)
                return unavailable.status
            }
        }
        // Whatever ends the run, what was printed is written before the process exits.
        defer { recorder?.close() }
        let host = context.makeHost(config: config, plugins: plugins)
        // Watch loads every plugin, as it keeps serving whatever appears.
        host.catalog.load(until: nil)
        if context.refusesDuplicates(in: host.catalog) { return .configOrPlugin }
        let ran = stream ? await watchStreams(host, recorder, context) : await watch(host, recorder, context)
        let status = context.status(ran, fetchingWith: host.container)
        return recorder?.finish(status, context.diagnostics) ?? status
    }

    private func watch(_ host: PluginHost, _ recorder: WatchRecorder?, _ context: CommandContext) async -> ExitStatus {
        let stop = StopFlag()
        // No services: the ticks are watch's own work, and fetches end with them.
        return await Self.run(ServiceGroup(services: [], signals: context.signals, onStop: Self.onStop(stop, recorder, context.diagnostics)), context) { _ in
            await ticks(host, recorder, stop, context)
        }
    }

    /// Runs `group` with `body` as the command's work.
    /// - Returns: 0 once it stopped; 1 when it could not start (said in one line).
    static func run(_ group: ServiceGroup, _ context: CommandContext, _ body: @escaping @Sendable (ServiceGroup) async -> Void) async -> ExitStatus {
        do {
            _ = try await group.run(body)
            return .success
        } catch {
            context.diagnostics.error(error.description)
            return .fetchFailed
        }
    }

    /// Fetches and prints every `--interval` until `--ticks` or `stop`.
    private func ticks(_ host: PluginHost, _ recorder: WatchRecorder?, _ stop: StopFlag, _ context: CommandContext) async {
        let config = host.config, catalog = host.catalog, container = host.container
        let output = context.output, diagnostics = context.diagnostics
        for failure in catalog.report.failures { diagnostics.warning(failure.description) }
        var rescans = catalog.startRescanning()
        let service = QuoteService(container: container, catalog: catalog, warn: { [diagnostics] in diagnostics.warning($0) })
        let currency = quotes.currency ?? config.defaultCurrency
        var tick = 0
        if format == .csv {
            output(quotes.aggregateMedian ? AggregateFormatter.header : QuoteFormatter.header)
        }
        while !stop.isSet {
            tick += 1
            if tick > 1 { catalog.rescan(&rescans, diagnostics: diagnostics) }
            let routing = service.routes(for: quotes.assets, explicitProviders: quotes.providers)
            for (asset, error) in routing.failures {
                emitFailure(asset: asset, currency: currency, message: error.message(providersNamedBy: QuoteOptions.providerSource), context)
            }
            let routes = routing.routes
            if quotes.aggregateMedian {
                await emitAggregates(service.aggregate(routes, currency: currency, maxAge: quotes.maxAge), currency: currency, recorder, unless: stop, context)
            } else {
                await emitQuotes(service.fetch(routes, currency: currency, maxAge: quotes.maxAge), currency: currency, recorder, unless: stop, context)
            }
            if let ticks = ticks, tick >= ticks { break }
            await sleep(jittered: intervalMilliseconds, unless: stop)
        }
    }

    private func emitQuotes(_ results: [Result<Quote, any Error>], currency: String, _ recorder: WatchRecorder?,
                            unless stop: StopFlag, _ context: CommandContext) {
        let receivedAt = context.clock.wallNow
        for result in results where !stop.isSet {
            switch result {
            case .success(let quote):
                guard recorder?.record(StoredQuote(quote, receivedAt: receivedAt, source: .rest)) != false else { return }
                for line in QuoteFormatter.lines(for: [quote], format: format, at: context.clock.wallNow).suffix(1) { context.output(line) }
            case .failure(let error as QuoteFailure):
                emitFailure(asset: error.request.asset, currency: currency, message: error.description, ageMilliseconds: error.ageMilliseconds, context)
            case .failure(let error):
                emitFailure(asset: "", currency: currency, message: "\(error)", context)
            }
        }
    }

    private func emitAggregates(_ results: [(result: Result<AggregateQuote, QuoteFailure>, failures: [QuoteFailure])],
                                currency: String, _ recorder: WatchRecorder?, unless stop: StopFlag, _ context: CommandContext) {
        let receivedAt = context.clock.wallNow
        for (result, leftOut) in results where !stop.isSet {
            for warning in AggregateQuote.sourceWarnings(for: result, leftOut: leftOut) { context.diagnostics.warning(warning) }
            switch result {
            case .success(let aggregate):
                guard recorder?.record(StoredQuote(median: aggregate, receivedAt: receivedAt, source: .rest)) != false else { return }
                for line in AggregateFormatter.lines(for: [aggregate], format: format).suffix(1) { context.output(line) }
            case .failure(let failure):
                emitFailure(asset: failure.request.asset, currency: currency, message: failure.description, context)
            }
        }
    }

    /// One failure: a JSON line with `error` on stdout in json format; one line on stderr otherwise.
    private func emitFailure(asset: String, currency: String, message: String, ageMilliseconds: Int64? = nil, _ context: CommandContext) {
        guard format == .json else {
            context.diagnostics.error(message)
            return
        }
        context.output(QuoteFormatter.failureLine(asset: asset, currency: currency, message: message, at: Date(), ageMilliseconds: ageMilliseconds))
    }

    /// Sleeps `seconds` ±10%, in short steps, so a signal ends it within 100 ms.
    private func sleep(jittered milliseconds: Int, unless stop: StopFlag) async {
        let total = Double(milliseconds) * Double.random(in: 0.9...1.1)
        let end = ContinuousClock.now + .milliseconds(Int(total))
        while !stop.isSet, ContinuousClock.now < end {
            // In steps of at most 100 ms, so a signal is seen within that.
            try? await Task.sleep(for: min(.milliseconds(100), end - ContinuousClock.now))
        }
    }

    /// A stop signal (SIGINT, SIGTERM) sets `stop`; a tick still running a second later is cut
    /// short by exiting between two lines (output holds its lock while writing one), once
    /// `recorder` has written what was printed. `--ticks` reached sets it too, and ends the run as it is.
    static func onStop(_ stop: StopFlag, _ recorder: WatchRecorder?, _ diagnostics: Diagnostics) -> @Sendable (ServiceGroup.Ending) -> Void {
        { ending in
            stop.set()
            guard case .signal = ending else { return }
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.9) {
                let status = recorder?.finish(.success, diagnostics) ?? .success
                LineOutput.standardOutput.exitBetweenLines(status: status.rawValue)
            }
        }
    }
}
