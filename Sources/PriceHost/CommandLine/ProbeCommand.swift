import ChildProcesses
import FoundationEssentials
import Glibc
import PriceHostCore
import ProviderABI

/// `pricehost __probe --plugin PATH` (internal): loads one plugin and fetches
/// once through each of its fetchers, writing its progress as JSON lines so
/// the parent `check` can tell where a crash or hang happened.
struct ProbeCommand: LoadsPlugins {
    var plugins = PluginOptions()
    /// `--plugin PATH`: the plugin file to load.
    var pluginPath: String?
    /// `--conformance`: also run the conformance fetches.
    var conformance = false
    /// `--bad-settings`: hand the plugin settings with an unknown key.
    var badSettings = false
    /// `--load-only`: load the plugin and say what it is, without fetching.
    var loadOnly = false
    /// `--parent PID`: check's pid; the probe ends with it.
    var parent: pid_t?

    /// How long the probe waits for each fetch's completion while the plugin
    /// has no HTTP request in flight with the host.
    static let fetchTimeout: Duration = .seconds(5)
    /// At most this many of a plugin's fetchers are exercised.
    static let maximumFetchersExercised = 16
    /// What `--bad-settings` hands the plugin: a key no plugin knows.
    static let badSettings = #"{"conformanceCheckUnknownKey": true}"#
    /// An asset no provider lists.
    static let unknownAsset = "ZZZ999ZZZ"
    /// Concurrent fetches of one pair in the conformance check.
    static let concurrentFetches = 8
    /// How long it waits after the fetches for completions that come twice.
    static let lateCompletionGrace: Duration = .milliseconds(200)

    func run(in context: CommandContext) async -> ExitStatus {
        guard let config = context.loadConfig(for: self, pluginPath: pluginPath) else { return .configOrPlugin }
        // The probe's own process group, so check can kill whatever a plugin leaves running.
        setpgid(0, 0)
        // And it ends with check, even when check is killed with SIGKILL: a hung plugin is not left running.
        guard ChildProcess.dieWithParent(parent) else { return .success }
        let host = context.makeHost(config: config, plugins: plugins, computeHashes: true) { options in
            options.fetchTimeout = { _ in Self.fetchTimeout }
            if badSettings { options.settingsOverride = Self.badSettings }
        }
        return await probe(host.catalog, config: config, output: context.output)
    }

    private func probe(_ catalog: ProviderCatalog, config: Config, output: @escaping @Sendable (String) -> Void) async -> ExitStatus {
        /// One line on stdout, for `check` to read.
        @Sendable func emit(_ event: ProbeEvent) { output(event.line) }
        // Counted and reported once in "done", not a warning per call.
        PendingFetches.shared.logsLateCompletions = false
        let path = FilePath.absolute(pluginPath ?? "", relativeTo: FilePath.currentDirectory)
        let pin = catalog.loader.candidates(config: config).files.first { $0.path == path }?.pin
        catalog.load([PluginLoader.Candidate(path: path, pin: pin)])
        let report = catalog.report
        guard let plugin = report.plugins.first else {
            emit(.loadFailed(error: report.failures.first?.reason ?? "not loaded"))
            return .success
        }
        emit(.loaded(ProbeEvent.Plugin(name: plugin.name, version: plugin.version, abi: plugin.abiVersion, path: plugin.path,
                                       sha256: plugin.sha256, fetchers: plugin.fetcherNames)))
        if loadOnly {
            emit(.done(lateCompletions: 0, strayProcesses: 0))
            return .success
        }
        let routedHere = config.assets.keys.sorted().first { config.assets[$0]?.providerOrder?.contains(plugin.name) == true }
        // All at once, so the time a check takes is one fetch's, not the sum.
        let exercised = Array(plugin.fetchers.prefix(Self.maximumFetchersExercised))
        await withTaskGroup(of: Void.self) { group in
            for fetcher in exercised {
                let request = QuoteRequest(asset: fetcher.asset ?? routedHere ?? "BTC", currency: config.defaultCurrency)
                emit(.fetching(fetcher: fetcher.registrationName, pair: request.pair))
                group.addTask {
                    do {
                        let quote = try await fetcher.fetcher.fetchQuote(for: request)
                        emit(.fetched(fetcher: fetcher.registrationName, pair: request.pair,
                                      outcome: .quote(amount: DecimalAmount.format(quote.amount))))
                        if let problem = Self.implausibleTimestamp(quote.timestamp, now: Date()) {
                            emit(.finding(text: "answered \(request.pair) through \(fetcher.registrationName) with \(problem)"))
                        }
                    } catch {
                        let failure = error as? QuoteFailure
                        emit(.fetched(fetcher: fetcher.registrationName, pair: request.pair,
                                      outcome: .failed(code: failure?.code ?? .failed, error: "\(error)",
                                                       refused: failure?.isRefusedAnswer ?? false)))
                    }
                }
            }
        }
        if conformance, let first = exercised.first {
            await conformanceFetches(first, asset: first.asset ?? routedHere ?? "BTC", config: config, emit: emit)
        }
        try? await Task.sleep(for: Self.lateCompletionGrace)
        let stray = ProcessGroup.killOthers()
        emit(.done(lateCompletions: PendingFetches.shared.lateCompletions, strayProcesses: stray))
        return .success
    }

    /// The conformance check's own fetches: an unknown asset must be a clean
    /// error; the same pair fetched many times at once must complete each time.
    private func conformanceFetches(_ fetcher: PluginFetcher, asset: String, config: Config,
                                    emit: @escaping @Sendable (ProbeEvent) -> Void) async {
        func finding(_ text: String) { emit(.finding(text: text)) }
        if fetcher.asset == nil {
            let unknown = QuoteRequest(asset: Self.unknownAsset, currency: config.defaultCurrency)
            emit(.fetching(fetcher: fetcher.registrationName, pair: unknown.pair))
            do {
                let quote = try await fetcher.fetcher.fetchQuote(for: unknown)
                finding("answered \(unknown.pair), an asset that does not exist, with \(DecimalAmount.format(quote.amount)); answer such a request with a not_found error")
            } catch let failure as QuoteFailure where failure.code == .noCompletion {
                finding("never completed the fetch of \(unknown.pair); call the completion exactly once, with an error when there is no price")
            } catch {}
            emit(.conformanceDone(fetcher: fetcher.registrationName, pair: unknown.pair))
        }
        let request = QuoteRequest(asset: asset, currency: config.defaultCurrency)
        let concurrent = "\(request.pair) x\(Self.concurrentFetches)"
        emit(.fetching(fetcher: fetcher.registrationName, pair: concurrent))
        let unanswered = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<Self.concurrentFetches {
                group.addTask {
                    do { _ = try await fetcher.fetcher.fetchQuote(for: request); return false } catch let failure as QuoteFailure {
                        return failure.code == .noCompletion
                    } catch { return false }
                }
            }
            var count = 0
            for await missing in group where missing { count += 1 }
            return count
        }
        if unanswered > 0 {
            finding("left \(unanswered) of \(Self.concurrentFetches) concurrent fetches of \(request.pair) without a completion; fetch may be called concurrently and must complete each call once")
        }
        emit(.conformanceDone(fetcher: fetcher.registrationName, pair: concurrent))
    }

    /// Why a quote's time cannot be right: before 2000 (seconds where milliseconds
    /// belong read as 1970), or more than a day ahead of this machine's clock.
    static func implausibleTimestamp(_ timestamp: Date, now: Date) -> String? {
        let text = ISO8601Timestamp.format(timestamp)
        if timestamp.timeIntervalSince1970 < 946_684_800 {
            return "the time \(text), before 2000; timestamp_ms counts milliseconds since 1970, not seconds"
        }
        if timestamp.timeIntervalSince(now) > 86_400 {
            return "the time \(text), more than a day in the future; timestamp_ms counts milliseconds since 1970, in UTC"
        }
        return nil
    }
}
