import PriceHostCore
import PriceHostStore

/// SIGHUP's policy: the config and plugin directories again. Plugins that are gone keep
/// serving from memory with a warning, as `watch` does; a config that cannot be used is
/// refused in one line and the previous generation keeps serving. The same Redis keeps
/// its client; another one gets a new client, and the old one is shut down once replaced.
/// The quote store is opened once, at start: a changed `store` section is warned about; so are changed `webhooks`.
package struct ServeReload: Sendable {
    let assembly: any ServeAssembly
    let metrics: ServeMetrics
    let diagnostics: Diagnostics
    /// `--listen` was given: a changed `serve.listen` is then no news.
    let listenGiven: Bool

    package init(assembly: any ServeAssembly, metrics: ServeMetrics, diagnostics: Diagnostics, listenGiven: Bool) {
        self.assembly = assembly
        self.metrics = metrics
        self.diagnostics = diagnostics
        self.listenGiven = listenGiven
    }

    /// Builds the next generation and serves it from `state`, or says why not.
    /// - Parameter address: where the server listens (a reload never moves it).
    /// - Returns: true when the next generation serves.
    @discardableResult
    package func reload(_ state: ServeState, listeningOn address: ListenAddress) -> Bool {
        let previous = state.current
        let config: Config
        switch assembly.loadConfig() {
        case .success(let loaded): config = loaded
        case .failure(let refusal): return refuse(refusal.lines)
        }
        if let problem = config.serve.tokenProblem ?? config.sharedProblem {
            return refuse(["\(ConfigError(path: config.path, reason: problem.description))"])
        }
        let fleet = config.shared == previous.config.shared ? previous.fleet : ServeApplication.makeFleet(config.shared, metrics: metrics, diagnostics)
        let next: ServeGeneration
        switch assembly.makeGeneration(config, metrics: metrics, fleet: fleet, feeds: previous.feeds) {
        case .success(let made): next = made
        case .failure(let refusal):
            if fleet !== previous.fleet { fleet?.shutdown() }
            return refuse(refusal.lines)
        }
        keepPluginsGone(from: previous, in: next)
        let known = Set(previous.catalog.report.failures.map(\.description))
        for failure in next.catalog.report.failures where !known.contains(failure.description) { diagnostics.warning(failure.description) }
        if !listenGiven, config.serve.listen != previous.config.serve.listen {
            diagnostics.warning("serve.listen changed to \(config.serve.listen); still listening on \(address) until pricehost restarts")
        }
        if config.section(StoreSection.self) != previous.config.section(StoreSection.self) {
            let kept = metrics.store.store.map { "the store stays \($0.settings.location) as it was" } ?? "the store stays as it was"
            diagnostics.warning("store changed in \(config.path); \(kept) until pricehost restarts")
        }
        if config.webhooks != previous.config.webhooks {
            diagnostics.warning("webhooks changed in \(config.path); the webhooks go on as they started until pricehost restarts")
        }
        state.replace(with: next)
        for (path, identity) in next.identities.sorted(by: { $0.key < $1.key }) where previous.identities[path].map({ $0 != identity }) == true {
            diagnostics.log(.info, "plugin \(path) was replaced on disk: its new copy serves from now (the old one stays loaded until pricehost restarts)")
        }
        if fleet !== previous.fleet { previous.fleet?.shutdown() }
        let added = next.catalog.report.plugins.filter { plugin in previous.catalog.plugin(named: plugin.name) == nil }
        for plugin in added { diagnostics.log(.info, "plugin \(plugin.path): loaded; provider '\(plugin.name)' serves from now") }
        diagnostics.log(.info, "reloaded \(config.path): \(next.catalog.report.plugins.count) plugin(s) serving")
        return true
    }

    /// A plugin loaded before and not found now keeps serving from memory (it is never unloaded), with a warning.
    private func keepPluginsGone(from previous: ServeGeneration, in next: ServeGeneration) {
        var kept: [LoadedPlugin] = []
        for plugin in previous.catalog.report.plugins where next.catalog.plugin(named: plugin.name) == nil {
            guard next.catalog.admit(.success(plugin)) != nil else { continue }
            kept.append(plugin)
            diagnostics.warning("plugin \(plugin.path) (provider '\(plugin.name)') is no longer found; the loaded copy keeps serving until pricehost restarts")
        }
        next.catalog.register(kept)
    }

    private func refuse(_ lines: [String]) -> Bool {
        diagnostics.error("reload refused: \(lines.joined(separator: "; ")); still serving the previous config")
        return false
    }
}
