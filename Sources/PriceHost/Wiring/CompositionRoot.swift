import Injection
import PriceHostCore
import PriceHostHTTP
import PriceHostService
import PriceHostStore
import ProviderABI

/// The wiring diagram of pricehost, in one place:
///
/// ```
/// arguments, environment
///   -> ConfigLocator -> Config                              (plugins.json)
///   -> Container:
///        Config, Diagnostics                                singletons
///        Networking                                         CurlTransport: libcurl, dlopen'ed on the first request
///        TokenBucket "provider"                             a provider's request budget (requestsPerSecond), singleton
///        HTTPClient (argument: provider)                    ProviderHTTPClient: the provider's policy and budget around Networking
///   -> PluginSearchPath + PluginLoader                      (find, check, dlopen, read descriptors; plugins get HTTPClient from the container)
///   -> ProviderCatalog                                      (one plugin per provider name; loads, rescans; registers:)
///        PriceFetcher "provider", "provider/ASSET"          each plugin's fetchers (behind a cache when cacheSeconds is set)
///   -> QuoteService (routes an asset to its providers through the catalog, fetches concurrently, falls back, checks age and bounds, aggregates)
///   -> a command (fetch, watch, providers, check) -> QuoteFormatter / AggregateFormatter -> stdout
///      (check runs each plugin in a child `pricehost __probe` instead of loading it here)
/// ```
enum CompositionRoot {
    /// The config's sections that the layers above the core own: `serve`, the fleet's `shared`, the quote `store`, and serve's `webhooks`.
    static let configSections: [any ConfigSection.Type] = [ServeSettings.self, SharedSection.self, StoreSection.self, WebhookSettings.self]

    /// Finds and parses the config.
    /// - Throws: ``ConfigError``.
    static func loadConfig(configPath: String?, environment: [String: String]) throws(ConfigError) -> Config {
        try ConfigLocator(explicitPath: configPath, environment: environment,
                          currentDirectory: FilePath.currentDirectory, sections: configSections).load()
    }

    /// The container with the host's own services; plugins' fetchers are added by ``ProviderCatalog``.
    /// - Parameters:
    ///   - libcurl: the soname or path of libcurl (`PRICEHOST_LIBCURL`), loaded on the first request.
    ///   - budget: wraps a provider's own bucket (`serve` with `shared.redis`: the fleet's budget in Redis).
    static func makeContainer(config: Config, diagnostics: Diagnostics, libcurl: String = LibCurl.defaultName,
                              budget: (@Sendable (_ provider: String, _ local: TokenBucket) -> any RequestBudget)? = nil) -> Container {
        let container = Container()
        container.register(Config.self, scope: .singleton) { _ in config }
        container.register(Diagnostics.self, scope: .singleton) { _ in diagnostics }
        // libcurl is loaded on the first request, so a command that needs no HTTP never maps it.
        container.register(Networking.self, scope: .singleton) { _ in CurlTransport(libraryName: libcurl) }
        // One request budget per provider that sets one, shared by all its requests.
        for (provider, policy) in config.providerPolicies {
            guard let rate = policy.requestsPerSecond else { continue }
            container.register(TokenBucket.self, name: provider, scope: .singleton) { _ in
                TokenBucket(requestsPerSecond: rate, burst: policy.burst ?? max(1, Int(rate.rounded(.up))))
            }
        }
        container.register(HTTPClient.self) { (resolver, provider: String) in
            var requestBudget: (any RequestBudget)?
            if config.policy(for: provider).requestsPerSecond != nil {
                let bucket = try resolver.resolve(TokenBucket.self, name: provider)
                requestBudget = budget?(provider, bucket) ?? bucket
            }
            return ProviderHTTPClient(transport: try resolver.resolve(Networking.self), policy: config.policy(for: provider), budget: requestBudget)
        }
        return container
    }

    /// The loader for `config`; plugins get their HTTP client from `container`.
    static func makeLoader(config: Config, environment: [String: String], diagnostics: Diagnostics,
                                  container: Container, options: PluginLoader.Options = .init()) -> PluginLoader {
        let searchPath = PluginSearchPath(config: config, environment: environment,
                                          executableDirectory: ExecutableLocation.directory)
        return PluginLoader(searchPath: searchPath, diagnostics: diagnostics, options: options) { provider in
            httpClient(for: provider ?? "", in: container)
        }
    }

    /// The catalog of providers for `config`: plugins found by `loader`, registered into `container`.
    static func makeCatalog(loader: PluginLoader, config: Config, container: Container,
                            decorate: FetcherDecorator? = nil) -> ProviderCatalog {
        ProviderCatalog(loader: loader, config: config, container: container, decorate: decorate)
    }

    /// Why libcurl could not be loaded, if a request in `container` tried and failed:
    /// the commands that fetch then exit 3, as for a broken install.
    static func networkingLoadFailure(in container: Container) -> LibCurl.LoadError? {
        (try? container.resolve(Networking.self) as? CurlTransport)?.loadFailure
    }

    /// The provider's HTTP client from `container`; the registration is the composition root's own,
    /// so a failure here is a wiring mistake, reported as an unavailable network rather than a crash.
    static func httpClient(for provider: String, in container: Container) -> any HTTPClient {
        do {
            return try container.resolve(HTTPClient.self, argument: provider)
        } catch {
            return UnavailableHTTPClient(reason: "\(error)")
        }
    }
}

extension CompositionRoot {
    /// The feeds of the loaded plugins that describe one (ABI 1.3) and have a general fetcher,
    /// which polls REST while a feed is stale. Nothing connects until a pair is asked for.
    /// - Parameter enabledOnly: only providers whose config says `"stream": true` (`serve`).
    static func makeFeeds(catalog: ProviderCatalog, container: Container, config: Config, diagnostics: Diagnostics,
                          libcurl: String, enabledOnly: Bool = false) -> WebSocketFeeds {
        var sources: [String: WebSocketFeeds.Source] = [:]
        for plugin in catalog.report.plugins {
            guard let stream = plugin.stream, plugin.fetchers.contains(where: { $0.asset == nil }),
                  !enabledOnly || config.policy(for: plugin.name).stream.enabled,
                  let rest = try? container.resolve(PriceFetcher.self, name: plugin.name) else { continue }
            sources[plugin.name] = WebSocketFeeds.Source(stream: stream, policy: config.policy(for: plugin.name), rest: rest)
        }
        return WebSocketFeeds(sources: sources, diagnostics: diagnostics, libraryName: libcurl)
    }
}
