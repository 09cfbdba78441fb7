import ProviderABI

extension QuoteService {
    /// Chooses the providers and fetchers for `asset`.
    /// - Throws: ``RoutingError``: `unknownProvider` when `--provider` names a
    ///   provider no plugin provides, `noProvider` when none is configured, and
    ///   `config` naming the key when the config names such a provider or the
    ///   provider's plugin failed to load.
    package func route(asset: String, explicitProviders: [String]?) throws(RoutingError) -> Route {
        let providers: [String]
        if let explicitProviders, !explicitProviders.isEmpty {
            for provider in explicitProviders {
                try requireNotFailed(provider)
                guard catalog.plugin(named: provider) != nil else {
                    try requireNoNamelessFailure(provider)
                    throw .unknownProvider(provider: provider, loaded: loadedProvidersText)
                }
            }
            providers = explicitProviders
        } else {
            guard let configured = Self.configuredProviders(for: asset, config: config) else {
                throw .noProvider("no provider for \(asset): pass --provider NAME, or set defaults.provider or assets.\(asset).provider in \(config.path)")
            }
            let key: String
            (providers, key) = configured
            for provider in providers {
                try requireNotFailed(provider)
                guard catalog.plugin(named: provider) != nil else {
                    try requireNoNamelessFailure(provider)
                    throw .config(ConfigError(path: config.path, reason: "\(key): no loaded plugin provides '\(provider)'; \(loadedProvidersText)"))
                }
            }
        }
        let named = explicitProviders.flatMap { $0.isEmpty ? nil : $0 }
        return Route(asset: asset, choices: providers.map { provider in
            Route.Choice(provider: provider, fetcherName: catalog.fetcherName(provider: provider, asset: asset))
        }, namedProviders: named)
    }

    /// Routes each of `assets` (``route(asset:explicitProviders:)``), in the order given: the one
    /// routing loop of `fetch`, `watch`, `watch --stream` and `/v1/prices`. Each decides what a
    /// failure means to it (a usage error, a failure line, a 400).
    package func routes(for assets: [String], explicitProviders: [String]?) -> Routing {
        Routing(results: assets.map { asset in
            do throws(RoutingError) {
                return (asset, .success(try route(asset: asset, explicitProviders: explicitProviders)))
            } catch {
                return (asset, .failure(error))
            }
        })
    }

    /// Each asset's route or routing error, in the order asked.
    package struct Routing {
        /// One per asset asked.
        package let results: [(asset: String, result: Result<Route, RoutingError>)]

        /// The routes found, in order.
        package var routes: [Route] {
            results.compactMap { if case .success(let route) = $0.result { route } else { nil } }
        }

        /// The assets that could not be routed, and why, in order.
        package var failures: [(asset: String, error: RoutingError)] {
            results.compactMap { if case .failure(let error) = $0.result { ($0.asset, error) } else { nil } }
        }
    }

    /// Every provider that routing `assets` can involve, so that a fetch loads
    /// only the plugins it needs; `nil` when an asset has no provider at all
    /// (routing will say so, after every plugin has been loaded). Beside the assets'
    /// own, those a cross rate to `currency` may ask: the currency's and each bridge's.
    package static func providersNeeded(for assets: [String], currency: String, explicitProviders: [String]?, config: Config) -> Set<String>? {
        if let explicitProviders, !explicitProviders.isEmpty { return Set(explicitProviders) }
        var needed = Set<String>()
        for asset in assets {
            guard let (providers, _) = configuredProviders(for: asset, config: config) else { return nil }
            needed.formUnion(providers)
        }
        let bridges = config.crossVia.filter { $0 != currency }
        // A leg without a provider is a missing leg, not a reason to load every plugin.
        for legAsset in bridges.isEmpty ? [] : [currency] + bridges {
            if let (providers, _) = configuredProviders(for: legAsset, config: config) { needed.formUnion(providers) }
        }
        return needed
    }

    /// The providers the config names for `asset`, and the key that names them.
    private static func configuredProviders(for asset: String, config: Config) -> (providers: [String], key: String)? {
        if let fromAsset = config.assets[asset]?.providerOrder {
            return (fromAsset, config.assets[asset]?.providers != nil ? "assets.\(asset).providers" : "assets.\(asset).provider")
        }
        return config.defaults.provider.map { ([$0], "defaults.provider") }
    }

    /// A provider whose plugin was found but failed to load is a plugin error, not an unknown name.
    private func requireNotFailed(_ provider: String) throws(RoutingError) {
        let report = catalog.report
        guard report.plugin(named: provider) == nil, let failure = report.failure(named: provider) else { return }
        throw .config(ConfigError(path: failure.path, reason: "provider '\(provider)' is this plugin's, which failed to load: \(failure.reason)"))
    }

    /// A provider nothing provides, while a plugin declined to load before it could
    /// say its name (over a settings typo, say): that plugin may well be the
    /// provider, so the plugin's own reason is the error, not an unknown name.
    private func requireNoNamelessFailure(_ provider: String) throws(RoutingError) {
        let nameless = catalog.report.failures.filter(\.declined)
        guard let first = nameless.first else { return }
        let others = nameless.dropFirst().map(\.path)
        let also = others.isEmpty ? "" : " (also failed: \(others.joined(separator: ", ")))"
        throw .config(ConfigError(path: first.path, reason: "no loaded plugin provides '\(provider)', and this plugin, which may be it, failed to load: \(first.reason)\(also)"))
    }

    private var loadedProvidersText: String {
        let names = catalog.report.plugins.map(\.name).sorted()
        return names.isEmpty ? "no plugin loaded" : "loaded providers: \(names.joined(separator: ", "))"
    }
}
