import Foundation
import Injection
@testable import PriceHost
@testable import PriceHostCore
import ProviderABI
import Testing

/// A fetcher that answers one fixed amount, or fails.
struct FixedFetcher: PriceFetcher {
    var amount: Decimal?
    var provider: String

    func fetchQuote(for request: QuoteRequest) async throws -> Quote {
        guard let amount else { throw ProviderError(.unavailable, "\(provider) is down") }
        return Quote(asset: request.asset, currency: request.currency, amount: amount, provider: provider,
                     timestamp: Date(timeIntervalSince1970: 0))
    }
}

struct QuoteServiceTests {
    static let configText = """
        {"defaults": {"provider": "file"}, "assets": {"USDC": {"provider": "peg"}, "ETH": {"provider": "coinbase"}},
         "providers": {"file": {"path": "prices.json"}}}
        """

    let config: Config
    let plugins: [LoadedPlugin]
    let container: Container
    let catalog: ProviderCatalog

    init() throws {
        config = try ConfigParser.parse(Array(Self.configText.utf8), path: "/etc/pricehost/plugins.json", environment: [:])
        func plugin(_ name: String, assets: [String?], amount: Decimal) -> LoadedPlugin {
            LoadedPlugin(path: "/lib/lib\(name).so", name: name, version: "1.0.0", abiVersion: "1.0",
                         fetchers: assets.map { asset in
                             PluginFetcher(provider: name, asset: asset,
                                           fetcher: FixedFetcher(amount: asset == nil ? amount : amount + 1, provider: name))
                         })
        }
        plugins = [plugin("file", assets: [nil, "BTC"], amount: 100), plugin("peg", assets: [nil], amount: 1)]
        container = CompositionRoot.makeContainer(config: config, diagnostics: Diagnostics(sink: { _ in }))
        catalog = Self.catalog(of: plugins, config: config, container: container)
    }

    /// A catalog holding `plugins`, as if loaded, with their fetchers registered into `container`.
    static func catalog(of plugins: [LoadedPlugin], config: Config, container: Container) -> ProviderCatalog {
        let diagnostics = Diagnostics(sink: { _ in })
        let loader = PluginLoader(searchPath: PluginSearchPath(config: config, environment: [:], executableDirectory: nil),
                                  diagnostics: diagnostics) { _ in UnavailableHTTPClient(reason: "none in this test") }
        let catalog = ProviderCatalog(loader: loader, config: config, container: container)
        catalog.register(plugins.compactMap { catalog.admit(.success($0)) })
        return catalog
    }

    var service: QuoteService { QuoteService(container: container, catalog: catalog) }

    @Test func providerComesFromTheFlagThenTheAssetThenTheDefault() throws {
        #expect(try service.route(asset: "USDC", explicitProviders: ["file"])
            == QuoteService.Route(asset: "USDC", choices: [.init(provider: "file", fetcherName: "file")], namedProviders: ["file"]))
        #expect(try service.route(asset: "USDC", explicitProviders: nil)
            == QuoteService.Route(asset: "USDC", choices: [.init(provider: "peg", fetcherName: "peg")]))
        #expect(try service.route(asset: "SOL", explicitProviders: nil)
            == QuoteService.Route(asset: "SOL", choices: [.init(provider: "file", fetcherName: "file")]))
    }

    @Test func dedicatedFetcherWinsOverTheGeneralOne() throws {
        #expect(try service.route(asset: "BTC", explicitProviders: nil)
            == QuoteService.Route(asset: "BTC", choices: [.init(provider: "file", fetcherName: "file/BTC")]))
    }

    @Test func unknownProviderFromTheFlagIsAUsageError() {
        let error = RoutingError.unknownProvider(provider: "coinbase", loaded: "loaded providers: file, peg")
        #expect(throws: error) {
            try service.route(asset: "BTC", explicitProviders: ["coinbase"])
        }
        // The caller names where the provider came from; the service does not know.
        #expect(error.message(providersNamedBy: "--provider") == "unknown provider 'coinbase' (from --provider); loaded providers: file, peg")
        #expect(error.description == "unknown provider 'coinbase'; loaded providers: file, peg")
    }

    @Test func unknownProviderFromConfigNamesTheKey() {
        #expect(throws: RoutingError.config(ConfigError(path: "/etc/pricehost/plugins.json",
                                    reason: "assets.ETH.provider: no loaded plugin provides 'coinbase'; loaded providers: file, peg"))) {
            try service.route(asset: "ETH", explicitProviders: nil)
        }
    }

    @Test func noProviderAnywhereSaysWhereToSetOne() throws {
        let bare = try ConfigParser.parse(Array("{}".utf8), path: "/p.json", environment: [:])
        let bareContainer = CompositionRoot.makeContainer(config: bare, diagnostics: Diagnostics(sink: { _ in }))
        let service = QuoteService(container: bareContainer, catalog: Self.catalog(of: plugins, config: bare, container: bareContainer))
        #expect(throws: RoutingError.noProvider("no provider for BTC: pass --provider NAME, or set defaults.provider or assets.BTC.provider in /p.json")) {
            try service.route(asset: "BTC", explicitProviders: nil)
        }
    }

    @Test func fetchKeepsTheOrderAndCarriesEachFailure() async throws {
        let routes = try ["BTC", "USDC", "SOL"].map { try service.route(asset: $0, explicitProviders: nil) }
        let results = await service.fetch(routes, currency: "USD")
        #expect(results.map { try? $0.get().amount } == [101, 1, 100])
        #expect(results.map { try? $0.get().provider } == ["file", "peg", "file"])
    }

    @Test func childContainerSwapsOneFetcherAndLeavesTheOthersAlone() async throws {
        let child = Container(parent: container)
        child.register(PriceFetcher.self, name: "file/BTC", scope: .singleton) { _ in FixedFetcher(amount: nil, provider: "file") }
        let swapped = QuoteService(container: child, catalog: catalog)
        let routes = try ["BTC", "USDC"].map { try swapped.route(asset: $0, explicitProviders: nil) }
        let results = await swapped.fetch(routes, currency: "USD")
        #expect(throws: QuoteFailure(provider: "file", request: QuoteRequest(asset: "BTC", currency: "USD"),
                                     code: .failed, message: "file is down")) { try results[0].get() }
        #expect(try results[1].get().amount == 1)
        // The parent still answers BTC with the original fetcher.
        #expect(try await service.fetch(routes, currency: "USD")[0].get().amount == 101)
    }
}
