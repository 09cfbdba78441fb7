import Injection
import ProviderABI

/// Wraps a provider's fetcher as it is registered: `(provider, fetcher, policy)`.
package typealias FetcherDecorator = @Sendable (_ provider: String, _ fetcher: any PriceFetcher, _ policy: ProviderPolicy) -> any PriceFetcher

/// Registers each loaded plugin's fetchers under `provider` and `provider/ASSET`,
/// behind the one cache (``CoalescingPriceFetcher``) when the provider's `cacheSeconds` asks for one.
struct PluginFetchersModule: Module {
    package let plugins: [LoadedPlugin]
    var policies: [String: ProviderPolicy] = [:]
    package var decorate: FetcherDecorator?

    package func register(into container: Container) {
        for plugin in plugins {
            let policy = policies[plugin.name] ?? ProviderPolicy()
            let cacheSeconds = policy.cacheSeconds
            for entry in plugin.fetchers {
                let fetcher: any PriceFetcher = decorate?(plugin.name, entry.fetcher, policy) ?? (cacheSeconds > 0
                    ? CoalescingPriceFetcher(provider: plugin.name, base: entry.fetcher, cacheSeconds: cacheSeconds) : entry.fetcher)
                container.register(PriceFetcher.self, name: entry.registrationName, scope: .singleton) { _ in fetcher }
            }
        }
    }
}
