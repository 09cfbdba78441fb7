import ConcurrencyHelpers
import Glibc
import PriceHostCore

/// `pricehost serve` as one application: it owns what is served (the generation: config,
/// plugins, fetchers, feeds, fleet), its lifecycle (``run()``: start, SIGHUP's ``ServeReload``,
/// shutdown) and the parts it runs, each a ``Service`` of one ``ServiceGroup``:
///
/// | order | service | shut down by |
/// | --- | --- | --- |
/// | 0 | child processes a plugin left (`pricehost serve` only) | ``ChildReaper/stopAll(within:)``: SIGTERM, then SIGKILL after 1 s |
/// | 1 | the quote store's writer (opened before the rest, so that it records from the first quote) | ``QuoteStore/close(within:)``: what is queued is written |
/// | 2 | the fleet's Redis client (with `shared`) | ``SharedFleet/shutdown()`` of every fleet still served |
/// | 3 | the feeds (providers with `"stream": true`) | ``QuoteFeeds/stop()`` |
/// | 4 | the SSE hub's tickers | ``StreamHub/stop()`` |
/// | 5 | the webhooks (`webhooks`), clients of the hub | ``Webhooks/stop()``: posts in flight are cancelled |
/// | 6 | the listener and its connections | ``ServeServer/drain(within:)`` |
///
/// The group stops them in the reverse order: requests in flight finish while the feeds and
/// the fleet still work; then the tickers, the feeds and Redis go; the store writes the last
/// quotes they brought.
package final class ServeApplication: Sendable {
    /// What the command line gives.
    package struct Options: Sendable {
        /// `--listen`: overrides `serve.listen`.
        package var listen: ListenAddress?
        package var environment: [String: String]
        package var diagnostics: Diagnostics
        package var signals: any SignalSource = ProcessSignals()
        /// What the history, the hub's retention and tickers, and the access times are read from.
        package var clock: any PriceClock = SystemClock()
        /// How long requests in flight get to finish after SIGTERM.
        package var drainLimit: Duration = .seconds(5)
        /// Children left running (a plugin's) are stopped last: the executable's own run. Off for an
        /// application run inside another program (a test), whose other children are not serve's.
        package var stopsChildren = false
        /// Told the address once the server listens (tests; the log line says it to people).
        package var listening: @Sendable (ListenAddress) -> Void = { _ in }
        /// What the webhooks post with (the executable's libcurl transport); without one, `webhooks` are refused.
        package var webhookPoster: (any WebhookPoster)?

        package init(listen: ListenAddress?, environment: [String: String], diagnostics: Diagnostics) {
            self.listen = listen
            self.environment = environment
            self.diagnostics = diagnostics
        }
    }

    /// How a run ended, for the exit status.
    package enum Outcome: Sendable, Equatable {
        /// Stopped by a signal, after draining.
        case stopped
        /// The config cannot be served; each line said why.
        case refused
        /// Nothing listens: the address, the accepting thread or the signals failed (said in one line).
        case listenFailed
    }

    private let config: Config
    private let assembly: any ServeAssembly
    private let options: Options

    package init(config: Config, assembly: any ServeAssembly, options: Options) {
        self.config = config
        self.assembly = assembly
        self.options = options
    }

    /// The fleet's side of this instance when `shared` is configured: it starts connecting to Redis.
    static func makeFleet(_ settings: SharedSettings?, metrics: ServeMetrics, _ diagnostics: Diagnostics) -> SharedFleet? {
        settings.map { SharedFleet(settings: $0, metrics: metrics.shared, diagnostics: diagnostics) }
    }

    /// Serves until SIGTERM or SIGINT; SIGHUP reloads.
    package func run() async -> Outcome {
        let diagnostics = options.diagnostics
        if let problem = config.serve.tokenProblem ?? config.sharedProblem ?? config.webhooks.secretProblem {
            diagnostics.error(ConfigError(path: config.path, reason: problem.description).description)
            return .refused
        }
        if !config.webhooks.hooks.isEmpty, options.webhookPoster == nil {
            diagnostics.error("webhooks: this serve has no HTTP client to post with")
            return .refused
        }
        let store: ServeStore
        switch ServeStore.open(config, environment: options.environment, diagnostics: diagnostics, clock: options.clock) {
        case .success(let opened): store = opened
        case .failure(let error):
            diagnostics.error(error.description)
            return .refused
        }
        let metrics = ServeMetrics(clock: options.clock, store: store)
        let fleet = Self.makeFleet(config.shared, metrics: metrics, diagnostics)
        let generation: ServeGeneration
        switch assembly.makeGeneration(config, metrics: metrics, fleet: fleet, feeds: nil) {
        case .success(let made): generation = made
        case .failure(let refusal):
            store.store?.close()
            fleet?.shutdown()
            for line in refusal.lines { diagnostics.error(line) }
            return .refused
        }
        for failure in generation.catalog.report.failures { diagnostics.warning(failure.description) }
        let address = options.listen ?? config.serve.listen
        if !address.isLoopback, config.serve.token == nil {
            diagnostics.warning("serving on \(address), beyond this machine, without a token: anyone who can reach it can use it; set serve.token (e.g. \"${PRICEHOST_TOKEN}\")")
        }
        let server: ServeServer
        do {
            server = try ServeServer(address: address, limits: ServeServer.Limits(config.serve))
        } catch {
            store.store?.close()
            fleet?.shutdown()
            await generation.feeds?.stop()
            diagnostics.error(error.description)
            return .listenFailed
        }
        let state = ServeState(generation)
        let services = makeServices(state: state, metrics: metrics, server: server)
        let reload = ServeReload(assembly: assembly, metrics: metrics, diagnostics: diagnostics, listenGiven: options.listen != nil)
        let environment = options.environment
        let group = ServiceGroup(services: services, signals: options.signals, handlers: [SIGHUP: { _ in
            // One signal at a time, on the signal thread: reloads never overlap.
            SystemdNotifier.notify("RELOADING=1", environment: environment)
            reload.reload(state, listeningOn: server.address)
            SystemdNotifier.notify("READY=1", environment: environment)
        }], onStop: { _ in SystemdNotifier.notify("STOPPING=1", environment: environment) })
        let listening = options.listening
        do {
            // No body: serve's work is its services', until a stop signal.
            _ = try await group.run(whenStarted: {
                // Only once the signals are handled: a SIGHUP sent on reading this line must reload, not kill.
                // Always printed: with port 0 it is the only way to learn the port.
                LineOutput.standardError.writeLine("pricehost: serving on http://\(server.address)")
                SystemdNotifier.notify("READY=1\nMAINPID=\(getpid())", environment: environment)
                listening(server.address)
            })
        } catch {
            diagnostics.error(error.description)
            return .listenFailed
        }
        return .stopped
    }

    /// serve's parts, in the order they start (the table above).
    private func makeServices(state: ServeState, metrics: ServeMetrics, server: ServeServer) -> [any Service] {
        let diagnostics = options.diagnostics, drainLimit = options.drainLimit
        let hub = StreamHub(source: ServeStreamSource(state: state, metrics: metrics), clock: options.clock)
        let log = RequestLog(metrics: metrics, diagnostics: diagnostics)
        let webhooks = Webhooks(metrics: metrics.webhooks, warn: { diagnostics.warning($0) }), options = options, config = config
        let router = ServeRouter(state: state, metrics: metrics, hub: hub, log: log, openConnections: { server.openConnectionCount })
        let children: [any Service] = options.stopsChildren ? [ServiceStep("child processes") {
            let killed = await DetachedThread.run { ChildReaper.stopAll(within: .seconds(1)) }
            if !killed.isEmpty { diagnostics.warning("child process(es) \(killed.map(String.init).joined(separator: ", ")) ignored SIGTERM for 1 s; killed") }
        }] : []
        return children + [
            ServiceStep("the quote store") {
                // Off the cooperative pool: the last batch is written to disk.
                await DetachedThread.run { metrics.store.store?.close() }
            },
            // A fleet a reload replaced was shut down then; the one served now is shut down here.
            ServiceStep("the fleet's Redis client") { state.current.fleet?.shutdown() },
            ServiceStep("the feeds") { await state.current.feeds?.stop() },
            ServiceStep("the stream hub") { hub.stop() },
            ServiceStep("the webhooks", run: { () throws(ServiceError) in
                if let poster = options.webhookPoster {
                    webhooks.start(config.webhooks, defaultCurrency: config.defaultCurrency, hub: hub, poster: poster, clock: options.clock)
                }
            }, shutdown: { await webhooks.stop() }),
            ServiceStep("the listener", run: { () throws(ServiceError) in
                // Answered requests are counted by the router's middleware; those the transport refused, here.
                let started = server.start(handler: { router.answer($0) }, finished: { request, route, status, milliseconds in
                    log.record(request, route: route, status: status, milliseconds: milliseconds)
                })
                guard started else { throw ServiceError("the accepting thread: \(String(cString: strerror(errno)))") }
            }, shutdown: {
                // Off the cooperative pool: requests in flight need it to finish.
                let drained = await DetachedThread.run { server.drain(within: drainLimit) }
                if !drained {
                    diagnostics.warning("\(server.openConnectionCount) connection(s) still open \(drainLimit) after the stop signal; closing them")
                }
            }),
        ]
    }
}
