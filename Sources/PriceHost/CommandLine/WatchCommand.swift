import Dispatch
import Foundation
import Glibc
import Injection
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
    let loader: PluginLoader
    let container: Container
    let initialReport: PluginLoadReport
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

        for failure in initialReport.failures { diagnostics.warning(failure.description) }
        var report = initialReport
        var known = fileIdentities(of: report)
        var warnedAbout = Set(report.failures.map(\.path))
        let currency = invocation.currency ?? config.defaultCurrency
        var tick = 0
        if invocation.format == .csv {
            output(invocation.aggregateMedian ? AggregateFormatter.lines(for: [], format: .csv)[0] : "asset,currency,amount,provider,timestamp")
        }
        while !stop.isSet {
            tick += 1
            if tick > 1 { rescan(&report, known: &known, warnedAbout: &warnedAbout) }
            let service = QuoteService(container: container, config: config, report: report,
                                       warn: { [diagnostics] in diagnostics.warning($0) })
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
            for failure in leftOut { diagnostics.warning("left out of the median: \(failure)") }
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
        output(JSONValue.object(JSONObject([
            ("asset", .string(asset)), ("currency", .string(currency)),
            ("error", .string(message)), ("timestamp", .string(ISO8601Timestamp.format(Date()))),
        ])).serialized)
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

    /// Loads plugin files that appeared since the last tick, and says once
    /// about files that were replaced or removed.
    private func rescan(_ report: inout PluginLoadReport, known: inout [String: LibraryCache.FileKey], warnedAbout: inout Set<String>) {
        // By resolved path, as loaded plugins are known: a path through a symbolic
        // link would otherwise look like a new plugin on every tick.
        let files = loader.candidates(config: config).files.map { candidate in
            var resolved = candidate
            resolved.path = PluginLoader.realPath(candidate.path) ?? candidate.path
            return resolved
        }
        let present = Set(files.map(\.path))
        for (path, key) in known.sorted(by: { $0.key < $1.key }) where !warnedAbout.contains(path) {
            if !present.contains(path) {
                diagnostics.warning("plugin \(path) was removed; the loaded copy keeps serving until pricehost restarts")
                warnedAbout.insert(path)
            } else if Self.identity(of: path) != key {
                diagnostics.warning("plugin \(path) was replaced on disk; the loaded copy keeps serving until pricehost restarts")
                warnedAbout.insert(path)
            }
        }
        let new = files.filter { known[$0.path] == nil && !warnedAbout.contains($0.path) }
        guard !new.isEmpty else { return }
        let added = loader.load(new, config: config)
        for failure in added.failures {
            diagnostics.warning(failure.description)
            warnedAbout.insert(failure.path)
        }
        var fresh: [LoadedPlugin] = []
        for plugin in added.plugins {
            if let earlier = report.plugin(named: plugin.name) {
                diagnostics.warning("plugin \(plugin.path): provider '\(plugin.name)' is already provided by \(earlier.path); remove one of the two")
                warnedAbout.insert(plugin.path)
                continue
            }
            diagnostics.log(.info, "plugin \(plugin.path): loaded; provider '\(plugin.name)' serves from this tick")
            fresh.append(plugin)
            known[plugin.path] = Self.identity(of: plugin.path)
        }
        report.plugins += fresh
        container.install(PluginFetchersModule(plugins: fresh, policies: config.providerPolicies))
    }

    private func fileIdentities(of report: PluginLoadReport) -> [String: LibraryCache.FileKey] {
        Dictionary(report.plugins.compactMap { plugin in Self.identity(of: plugin.path).map { (plugin.path, $0) } }, uniquingKeysWith: { first, _ in first })
    }

    static func identity(of path: String) -> LibraryCache.FileKey? {
        var info = stat()
        guard fstatat(AT_FDCWD, path, &info, 0) == 0 else { return nil }
        return LibraryCache.FileKey(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
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
                    OutputStream.standardOutput.exitBetweenLines(status: 0)
                }
            }
            source.resume()
            return source
        }
    }
}
