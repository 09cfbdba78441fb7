import Dispatch
import FoundationEssentials
import Glibc
import Injection
import PriceHostCore
import ProviderABI
import Synchronization

/// `pricehost watch`: fetches the assets every `--interval` seconds (with
/// ±10% jitter, so many watchers do not beat in step) and writes one line
/// per quote; a failure is a line with an `error` field, and the loop goes
/// on. Each tick rescans `pluginDirectories`: a newly dropped `.so` serves
/// from that tick; a replaced or removed file keeps serving from memory (it
/// is never unloaded) and the log says a restart is needed. SIGINT or
/// SIGTERM stops it within a second, with status 0 and no half-written line.
struct WatchCommand {
    let invocation: Invocation
    let config: Config
    let catalog: ProviderCatalog
    let container: Container
    let output: @Sendable (String) -> Void
    let diagnostics: Diagnostics

    /// Set by SIGINT or SIGTERM.
    final class StopFlag: Sendable {
        private let stopped = Atomic<Bool>(false)
        var isSet: Bool { stopped.load(ordering: .acquiring) }
        func set() { stopped.store(true, ordering: .releasing) }
    }

    func run() async -> ExitStatus {
        let stop = StopFlag()
        let signalSources = Self.installSignalHandlers(stop)
        defer { signalSources.forEach { $0.cancel() } }

        for failure in catalog.report.failures { diagnostics.warning(failure.description) }
        var rescans = catalog.startRescanning()
        let service = QuoteService(container: container, catalog: catalog, warn: { [diagnostics] in diagnostics.warning($0) })
        let currency = invocation.currency ?? config.defaultCurrency
        var tick = 0
        if invocation.format == .csv {
            output(invocation.aggregateMedian ? AggregateFormatter.header : QuoteFormatter.header)
        }
        while !stop.isSet {
            tick += 1
            if tick > 1 { catalog.rescan(&rescans, diagnostics: diagnostics) }
            var routes: [QuoteService.Route] = []
            for asset in invocation.assets {
                do {
                    routes.append(try service.route(asset: asset, explicitProviders: invocation.providers))
                } catch {
                    emitFailure(asset: asset, currency: currency, message: "\(error)")
                }
            }
            if invocation.aggregateMedian {
                await emitAggregates(service.aggregate(routes, currency: currency), currency: currency, unless: stop)
            } else {
                await emitQuotes(service.fetch(routes, currency: currency), currency: currency, unless: stop)
            }
            if let ticks = invocation.ticks, tick >= ticks { break }
            await sleep(jittered: invocation.intervalMilliseconds, unless: stop)
        }
        return .success
    }

    private func emitQuotes(_ results: [Result<Quote, any Error>], currency: String, unless stop: StopFlag) {
        for result in results where !stop.isSet {
            switch result {
            case .success(let quote):
                for line in QuoteFormatter.lines(for: [quote], format: invocation.format).suffix(1) { output(line) }
            case .failure(let error as QuoteFailure):
                emitFailure(asset: error.request.asset, currency: currency, message: error.description)
            case .failure(let error):
                emitFailure(asset: "", currency: currency, message: "\(error)")
            }
        }
    }

    private func emitAggregates(_ results: [(result: Result<AggregateQuote, QuoteFailure>, failures: [QuoteFailure])],
                                currency: String, unless stop: StopFlag) {
        for (result, leftOut) in results where !stop.isSet {
            for warning in AggregateQuote.sourceWarnings(for: result, leftOut: leftOut) { diagnostics.warning(warning) }
            switch result {
            case .success(let aggregate):
                for line in AggregateFormatter.lines(for: [aggregate], format: invocation.format).suffix(1) { output(line) }
            case .failure(let failure):
                emitFailure(asset: failure.request.asset, currency: currency, message: failure.description)
            }
        }
    }

    /// One failure: a JSON line with `error` on stdout in json format; one line on stderr otherwise.
    private func emitFailure(asset: String, currency: String, message: String) {
        guard invocation.format == .json else {
            diagnostics.error(message)
            return
        }
        output(QuoteFormatter.failureLine(asset: asset, currency: currency, message: message, at: Date()))
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

    /// SIGINT and SIGTERM set `stop`; a tick still running a second later is cut
    /// short by exiting between two lines (output holds its lock while writing one).
    static func installSignalHandlers(_ stop: StopFlag) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                stop.set()
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.9) {
                    LineOutput.standardOutput.exitBetweenLines(status: 0)
                }
            }
            source.resume()
            return source
        }
    }
}
