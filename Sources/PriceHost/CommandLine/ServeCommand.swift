import Glibc
import Injection
import PriceHostCore
import PriceHostHTTP
import PriceHostService
import ProviderABI

/// `pricehost serve`: prices over HTTP for deployments (README, "Serve").
///
/// Loads every plugin, listens (`--listen`, else `serve.listen`, else 127.0.0.1:8480),
/// answers until SIGTERM or SIGINT, then stops accepting, lets requests in flight
/// finish (at most 5 s), ends SSE streams and exits 0. SIGHUP re-reads the config and
/// the plugin directories; a config that cannot be used is refused in one line and
/// the previous one keeps serving.
struct ServeCommand: LoadsPlugins {
    var plugins = PluginOptions()
    /// `--listen HOST:PORT`: overrides `serve.listen`.
    var listen: ListenAddress?

    /// How long requests in flight get to finish after SIGTERM.
    static let drainLimit: Duration = .seconds(5)

    func run(in context: CommandContext) async -> ExitStatus {
        guard let config = context.loadConfig(for: self) else { return .configOrPlugin }
        // The access log is at info: on unless PRICEHOST_LOG asks for less.
        let serving = context.environment["PRICEHOST_LOG"] == nil && context.diagnostics === Diagnostics.process
            ? context.with(diagnostics: Diagnostics(threshold: .info)) : context
        return await serve(config, serving)
    }

    private func serve(_ config: Config, _ context: CommandContext) async -> ExitStatus {
        let environment = context.environment, diagnostics = context.diagnostics
        if let problem = config.serve.tokenProblem {
            diagnostics.error(ConfigError(path: config.path, reason: problem.description).description)
            return .configOrPlugin
        }
        if let problem = config.sharedProblem {
            diagnostics.error(ConfigError(path: config.path, reason: problem.description).description)
            return .configOrPlugin
        }
        let metrics = ServeMetrics()
        let fleet = makeFleet(config.shared, metrics: metrics, context)
        let generation: ServeGeneration
        switch makeGeneration(config, metrics: metrics, fleet: fleet, context) {
        case .success(let made): generation = made
        case .failure(let refusal):
            for line in refusal.lines { diagnostics.error(line) }
            return .configOrPlugin
        }
        for failure in generation.catalog.report.failures { diagnostics.warning(failure.description) }
        let settings = config.serve
        let address = listen ?? settings.listen
        if !address.isLoopback, settings.token == nil {
            diagnostics.warning("serving on \(address), beyond this machine, without a token: anyone who can reach it can use it; set serve.token (e.g. \"${PRICEHOST_TOKEN}\")")
        }
        let server: ServeServer
        do {
            server = try ServeServer(address: address, limits: ServeServer.Limits(settings))
        } catch {
            diagnostics.error(error.description)
            return .listenFailed
        }
        let state = ServeState(generation)
        let hub = StreamHub(push: { topic in ServeRouter.feed(for: topic, state: state, metrics: metrics) }) { topic in
            await ServeRouter.event(for: topic, state: state)
        }
        let router = ServeRouter(state: state, metrics: metrics, hub: hub, openConnections: { server.openConnectionCount })
        let accessLog = diagnostics.isLogging(.info)
        let started = server.start(handler: { router.answer($0) }, finished: { [diagnostics] request, route, status, milliseconds in
            metrics.request(route: route, status: status)
            guard accessLog else { return }
            let tenths = Int((milliseconds * 10).rounded())
            diagnostics.log(.info, "\(request?.method ?? "-") \(request?.path ?? "-") \(status) \(tenths / 10).\(tenths % 10) ms")
        })
        guard started else {
            diagnostics.error("cannot start the accepting thread: \(String(cString: strerror(errno)))")
            return .listenFailed
        }
        let (stops, stop) = AsyncStream<Int32>.makeStream()
        // One signal at a time, on the pipe's thread: reloads never overlap.
        let handled = SignalPipe.install([SIGHUP, SIGINT, SIGTERM]) { [self] number in
            if number == SIGHUP {
                SystemdNotifier.notify("RELOADING=1", environment: environment)
                reload(state, metrics: metrics, listening: server, context)
                SystemdNotifier.notify("READY=1", environment: environment)
            } else {
                stop.yield(number)
            }
        }
        guard handled else {
            diagnostics.error("cannot handle signals: \(String(cString: strerror(errno)))")
            return .listenFailed
        }
        // Only once the signals are handled: a SIGHUP sent on reading this line must reload, not kill.
        // Always printed: with port 0 it is the only way to learn the port.
        LineOutput.standardError.writeLine("pricehost: serving on http://\(server.address)")
        SystemdNotifier.notify("READY=1\nMAINPID=\(getpid())", environment: environment)
        for await _ in stops { break }

        SystemdNotifier.notify("STOPPING=1", environment: environment)
        hub.stop()
        await generation.feeds?.stop()
        // Off the cooperative pool: requests in flight need it to finish.
        let drained = await withCheckedContinuation { continuation in
            let started = DetachedThread.start { continuation.resume(returning: server.drain(within: Self.drainLimit)) }
            if !started { continuation.resume(returning: server.drain(within: Self.drainLimit)) }
        }
        if !drained {
            diagnostics.warning("\(server.openConnectionCount) connection(s) still open \(Self.drainLimit) after the stop signal; closing them")
        }
        return .success
    }

    /// Why a config cannot be served: one line each.
    struct Refusal: Error {
        var lines: [String]
    }

    /// The fleet's side of this instance when `shared` is configured: it starts connecting to Redis.
    func makeFleet(_ settings: SharedSettings?, metrics: ServeMetrics, _ context: CommandContext) -> SharedFleet? {
        settings.map { SharedFleet(settings: $0, metrics: metrics.shared, diagnostics: context.diagnostics) }
    }

    /// Everything built from `config`: the container, every plugin loaded, fetchers that coalesce and report to `metrics`
    /// (and, with a `fleet`, share through Redis).
    func makeGeneration(_ config: Config, metrics: ServeMetrics, fleet: SharedFleet? = nil, feeds: (any QuoteFeeds)? = nil,
                        _ context: CommandContext) -> Result<ServeGeneration, Refusal> {
        let diagnostics = context.diagnostics
        var budget: (@Sendable (String, TokenBucket) -> any RequestBudget)?
        if let fleet { budget = { provider, local in fleet.budget(provider: provider, local: local) } }
        let host = context.makeHost(config: config, plugins: plugins, budget: budget, decorate: { provider, fetcher, policy in
            // Another instance's fetch is waited for as long as a fetch may take, no longer.
            CoalescingPriceFetcher(provider: provider, base: fetcher, cacheSeconds: policy.cacheSeconds, observer: metrics,
                                   shared: fleet?.quotes, sharedWaitLimit: min(policy.worstCaseHTTPTime, .seconds(60)))
        })
        let container = host.container, catalog = host.catalog
        catalog.loadAll()
        // Two plugins with one provider name: refused, as by every command that loads them all.
        if let refusal = catalog.duplicateRefusal { return .failure(Refusal(lines: refusal)) }
        let service = QuoteService(container: container, catalog: catalog, warn: { [diagnostics] in diagnostics.warning($0) })
        var identities: [String: LibraryCache.FileKey] = [:]
        for plugin in catalog.report.plugins { identities[plugin.path] = ProviderCatalog.identity(of: plugin.path) }
        // The feeds are made once: a reload keeps them (and their connections); stream settings change on restart.
        let feeds = feeds ?? makeFeeds(catalog: catalog, container: container, config: config, fleet: fleet, context)
        return .success(ServeGeneration(config: config, container: container, catalog: catalog, service: service, identities: identities,
                                        fleet: fleet, feeds: feeds))
    }

    /// The feeds of the providers whose config says `"stream": true`; with a fleet, shared through
    /// Redis so that one instance holds each venue's connection (``FleetFeeds``).
    func makeFeeds(catalog: ProviderCatalog, container: Container, config: Config, fleet: SharedFleet?,
                   _ context: CommandContext) -> any QuoteFeeds {
        let local = CompositionRoot.makeFeeds(catalog: catalog, container: container, config: config, diagnostics: context.diagnostics,
                                              libcurl: context.environment["PRICEHOST_LIBCURL"] ?? LibCurl.defaultName, enabledOnly: true)
        guard let fleet, !local.providers.isEmpty else { return local }
        return FleetFeeds(local: local, fleet: fleet, diagnostics: context.diagnostics) { provider in
            config.policy(for: provider).stream.staleAfter
        }
    }

    /// SIGHUP: the config and plugin directories again. Plugins that are gone keep
    /// serving from memory with a warning, as `watch` does; a config that cannot be
    /// used is refused and the previous generation keeps serving.
    func reload(_ state: ServeState, metrics: ServeMetrics, listening server: ServeServer, _ context: CommandContext) {
        let environment = context.environment, diagnostics = context.diagnostics
        let previous = state.current
        let config: Config
        do {
            config = try CompositionRoot.loadConfig(configPath: plugins.configPath, environment: environment)
        } catch {
            diagnostics.error("reload refused: \(error.description); still serving the previous config")
            return
        }
        if let problem = config.serve.tokenProblem ?? config.sharedProblem {
            diagnostics.error("reload refused: \(ConfigError(path: config.path, reason: problem.description)); still serving the previous config")
            return
        }
        // The same Redis keeps its connection; another one gets a new client, and the old one stops once replaced.
        let fleet = config.shared == previous.config.shared ? previous.fleet : makeFleet(config.shared, metrics: metrics, context)
        let next: ServeGeneration
        switch makeGeneration(config, metrics: metrics, fleet: fleet, feeds: previous.feeds, context) {
        case .success(let made): next = made
        case .failure(let refusal):
            if fleet !== previous.fleet { fleet?.shutdown() }
            diagnostics.error("reload refused: \(refusal.lines.joined(separator: "; ")); still serving the previous config")
            return
        }
        var kept: [LoadedPlugin] = []
        for plugin in previous.catalog.report.plugins where next.catalog.plugin(named: plugin.name) == nil {
            guard next.catalog.admit(.success(plugin)) != nil else { continue }
            kept.append(plugin)
            diagnostics.warning("plugin \(plugin.path) (provider '\(plugin.name)') is no longer found; the loaded copy keeps serving until pricehost restarts")
        }
        next.catalog.register(kept)
        let known = Set(previous.catalog.report.failures.map(\.description))
        for failure in next.catalog.report.failures where !known.contains(failure.description) { diagnostics.warning(failure.description) }
        if listen == nil, config.serve.listen != previous.config.serve.listen {
            diagnostics.warning("serve.listen changed to \(config.serve.listen); still listening on \(server.address) until pricehost restarts")
        }
        state.replace(with: next)
        for (path, identity) in next.identities.sorted(by: { $0.key < $1.key }) where previous.identities[path].map({ $0 != identity }) == true {
            diagnostics.log(.info, "plugin \(path) was replaced on disk: its new copy serves from now (the old one stays loaded until pricehost restarts)")
        }
        if fleet !== previous.fleet { previous.fleet?.shutdown() }
        let added = next.catalog.report.plugins.filter { plugin in previous.catalog.plugin(named: plugin.name) == nil }
        for plugin in added { diagnostics.log(.info, "plugin \(plugin.path): loaded; provider '\(plugin.name)' serves from now") }
        diagnostics.log(.info, "reloaded \(config.path): \(next.catalog.report.plugins.count) plugin(s) serving")
    }
}
