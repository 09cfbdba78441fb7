import ConcurrencyHelpers
import Injection
@testable import PriceHostCore
@testable import PriceHostService
import PriceHostTestTraits
import PriceHostTesting
import Testing

/// SIGHUP's policy (``ServeReload``) without a process or a signal: a config rewritten
/// between two reloads, C test plugins, and the lines the reload says.
@Suite(.offThePool, .timeLimit(.minutes(2)))
struct ServeReloadTests {
    static let source = BuiltProducts.packageRoot + "/Tests/EndToEndTests/Fixtures/test_plugin.c"

    /// A C test plugin providing `provider`, built once per name.
    static func plugin(_ provider: String) throws -> String {
        try CPluginCompiler.compile(source: source, defines: ["PROVIDER=\"\(provider)\""], name: "libReload\(provider).so")
    }

    /// Builds generations as serve's wiring does, with a plain container: the config file,
    /// its plugins loaded by the real loader and catalog.
    struct Assembly: ServeAssembly {
        let directory: TemporaryDirectory
        let diagnostics: Diagnostics

        var configPath: String { directory.file("plugins.json") }

        func write(_ json: String) throws {
            _ = try directory.write(json, to: "plugins.json")
        }

        func loadConfig() -> Result<Config, ServeRefusal> {
            do {
                let locator = ConfigLocator(explicitPath: configPath, environment: [:], currentDirectory: directory.path,
                                            sections: [ServeSettings.self, SharedSection.self, WebhookSettings.self])
                return .success(try locator.load())
            } catch {
                return .failure(ServeRefusal(lines: [error.description]))
            }
        }

        func makeGeneration(_ config: Config, metrics: ServeMetrics, fleet: SharedFleet?, feeds: (any QuoteFeeds)?)
            -> Result<ServeGeneration, ServeRefusal> {
            let container = Container()
            let loader = PluginLoader(searchPath: PluginSearchPath(config: config, environment: [:], executableDirectory: nil),
                                      diagnostics: diagnostics, httpClients: { _ in SimulatedHTTPClient([:]) })
            let catalog = ProviderCatalog(loader: loader, config: config, container: container)
            catalog.loadAll()
            if let refusal = catalog.duplicateRefusal { return .failure(ServeRefusal(lines: refusal)) }
            let service = QuoteService(container: container, catalog: catalog, warn: { _ in })
            var identities: [String: LibraryCache.FileKey] = [:]
            for plugin in catalog.report.plugins { identities[plugin.path] = ProviderCatalog.identity(of: plugin.path) }
            return .success(ServeGeneration(config: config, container: container, catalog: catalog, service: service,
                                            identities: identities, fleet: fleet, feeds: feeds))
        }
    }

    /// The lines a reload said.
    final class Lines: Sendable {
        let lines = Lock<[String]>([])
        var diagnostics: Diagnostics { Diagnostics(threshold: .info, sink: { [lines] line in lines.withLock { $0.append(line) } }) }
        var all: [String] { lines.withLock { $0 } }
    }

    /// A state serving `json`'s first generation, the reload, and what it says.
    static func serving(_ json: String, in directory: TemporaryDirectory, listenGiven: Bool = false)
        throws -> (state: ServeState, reload: ServeReload, assembly: Assembly, lines: Lines) {
        let lines = Lines()
        let assembly = Assembly(directory: directory, diagnostics: lines.diagnostics)
        try assembly.write(json)
        let config = try #require(try? assembly.loadConfig().get())
        let first = try #require(try? assembly.makeGeneration(config, metrics: ServeMetrics(), fleet: nil, feeds: nil).get())
        let reload = ServeReload(assembly: assembly, metrics: ServeMetrics(), diagnostics: lines.diagnostics, listenGiven: listenGiven)
        return (ServeState(first), reload, assembly, lines)
    }

    static let address = ListenAddress(host: "127.0.0.1", port: 8480)

    @Test func aConfigThatNoLongerParsesIsRefusedInOneLineAndThePreviousKeepsServing() async throws {
        try await TemporaryDirectory.with { directory in
            let alpha = try Self.plugin("alpha")
            let (state, reload, assembly, lines) = try Self.serving(#"{"plugins": ["\#(alpha)"]}"#, in: directory)
            try assembly.write(#"{"plugins": ["#)
            #expect(!reload.reload(state, listeningOn: Self.address))
            #expect(state.current.catalog.plugin(named: "alpha") != nil)
            #expect(lines.all.count == 1)
            let line = try #require(lines.all.first)
            #expect(line.contains("reload refused: \(assembly.configPath)"))
            #expect(line.hasSuffix("; still serving the previous config"))
        }
    }

    @Test func aTokenWhoseVariableIsUnsetIsRefused() async throws {
        try await TemporaryDirectory.with { directory in
            let (state, reload, assembly, lines) = try Self.serving(#"{"plugins": []}"#, in: directory)
            let before = state.current.catalog
            try assembly.write(#"{"plugins": [], "serve": {"token": "${PRICEHOST_RELOAD_TEST_UNSET}"}}"#)
            #expect(!reload.reload(state, listeningOn: Self.address))
            #expect(state.current.catalog === before)
            #expect(lines.all.count == 1)
            #expect(lines.all.first?.contains("PRICEHOST_RELOAD_TEST_UNSET") == true)
        }
    }

    @Test func twoPluginsWithOneNameAreRefusedNamingBoth() async throws {
        try await TemporaryDirectory.with { directory in
            let alpha = try Self.plugin("alpha")
            let twin = try CPluginCompiler.compile(source: Self.source, defines: ["PROVIDER=\"alpha\"", "AMOUNT=\"2\""], name: "libReloadTwin.so")
            let (state, reload, assembly, lines) = try Self.serving(#"{"plugins": ["\#(alpha)"]}"#, in: directory)
            try assembly.write(#"{"plugins": ["\#(alpha)", "\#(twin)"]}"#)
            #expect(!reload.reload(state, listeningOn: Self.address))
            #expect(state.current.catalog.report.plugins.map(\.path) == [alpha])
            let line = try #require(lines.all.first)
            #expect(line.contains(alpha) && line.contains(twin))
        }
    }

    @Test func aPluginGoneKeepsServingWithAWarningAndOneAddedSaysSo() async throws {
        try await TemporaryDirectory.with { directory in
            let alpha = try Self.plugin("alpha"), beta = try Self.plugin("beta")
            let (state, reload, assembly, lines) = try Self.serving(#"{"plugins": ["\#(alpha)"]}"#, in: directory)
            try assembly.write(#"{"plugins": ["\#(beta)"]}"#)
            #expect(reload.reload(state, listeningOn: Self.address))
            #expect(state.current.catalog.report.plugins.map(\.name).sorted() == ["alpha", "beta"])
            #expect(lines.all.contains { $0.contains("plugin \(alpha) (provider 'alpha') is no longer found; the loaded copy keeps serving") })
            #expect(lines.all.contains { $0.contains("plugin \(beta): loaded; provider 'beta' serves from now") })
            #expect(lines.all.last?.contains("reloaded \(assembly.configPath): 2 plugin(s) serving") == true)
        }
    }

    @Test func aNewListenAddressIsNamedAsWaitingForARestartUnlessListenWasGiven() async throws {
        try await TemporaryDirectory.with { directory in
            for listenGiven in [false, true] {
                let (state, reload, assembly, lines) = try Self.serving(#"{"plugins": []}"#, in: directory, listenGiven: listenGiven)
                try assembly.write(#"{"plugins": [], "serve": {"listen": "127.0.0.1:9999"}}"#)
                #expect(reload.reload(state, listeningOn: Self.address))
                let warned = lines.all.contains { $0.contains("serve.listen changed to 127.0.0.1:9999; still listening on 127.0.0.1:8480 until pricehost restarts") }
                #expect(warned == !listenGiven)
                #expect(state.current.config.serve.listen == ListenAddress(host: "127.0.0.1", port: 9999))
            }
        }
    }

    @Test func changedWebhooksAreNamedAsWaitingForARestart() async throws {
        try await TemporaryDirectory.with { directory in
            let (state, reload, assembly, lines) = try Self.serving(#"{"plugins": []}"#, in: directory)
            try assembly.write(#"{"plugins": []}"#)
            #expect(reload.reload(state, listeningOn: Self.address))
            #expect(!lines.all.contains { $0.contains("webhooks changed") })
            try assembly.write(#"{"plugins": [], "webhooks": [{"url": "http://127.0.0.1:9/h", "asset": "BTC"}]}"#)
            #expect(reload.reload(state, listeningOn: Self.address))
            #expect(lines.all.contains { $0.contains("webhooks changed in \(assembly.configPath); the webhooks go on as they started until pricehost restarts") })
        }
    }
}
