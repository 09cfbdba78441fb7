import Injection
import Testing

// The seeds' registration code, with only the import changed (and `try` where Injection's
// resolve throws, and `Container` where Resolver says `Resolver`): the Swinject Bitcoin
// tutorial (autoregister, ~>), the Resolver tutorial (@Injected, @LazyInjected, .cached,
// registerAllServices, a mock child container), and the hand-made IoC container's lifecycles
// and modules. Resolver's registerAllServices is in RootContainerSuite.swift.

protocol Networking: Sendable {
    func get(_ url: String) throws -> String
}

struct NetworkingFailure: Error, CustomStringConvertible {
    let description: String
}

/// Stands in for real HTTP: answers from a fixed table, the way a live API would.
final class HTTPNetworking: Networking {
    func get(_ url: String) throws -> String {
        guard url == "https://api.coinbase.com/v2/prices/BTC-USD/spot" else {
            throw NetworkingFailure(description: "404 for \(url)")
        }
        return "64000.00"
    }
}

final class SimulatedNetworking: Networking {
    let answer: String

    init(answer: String) {
        self.answer = answer
    }

    func get(_ url: String) throws -> String {
        answer
    }
}

final class BitcoinPriceFetcher: PriceFetcher {
    let networking: any Networking
    let source = "coinbase/BTC"

    init(networking: any Networking) {
        self.networking = networking
    }

    func price() throws -> String {
        try networking.get("https://api.coinbase.com/v2/prices/BTC-USD/spot")
    }
}

/// The Swinject tutorial's stand-in for the network in tests: no arguments, so autoregister
/// can make it.
struct OfflineNetworking: Networking {
    func get(_ url: String) throws -> String {
        "3.00"
    }
}

/// The Resolver tutorial's cache of the last quote, `.cached` so a sign-out can empty it.
final class QuoteCache: Sendable {
    let networking: any Networking

    init(networking: any Networking) {
        self.networking = networking
    }
}

/// The hand-made IoC container's module: groups registrations.
struct NetworkingModule: Module {
    func register(into container: Container) {
        container.register(Networking.self, scope: .singleton) { _ in HTTPNetworking() }
    }
}

struct FetchersModule: Module {
    func register(into container: Container) {
        container.register(BitcoinPriceFetcher.self, scope: .transient) { r in
            BitcoinPriceFetcher(networking: try r.resolve(Networking.self))
        }
    }
}

extension RootContainerSuite {
    /// The seeds' registration code, run as it was written.
    struct SeedExampleTests {
        private func production() -> Container {
            let container = Container()
            container.register(Networking.self, scope: .singleton) { _ in HTTPNetworking() }
            container.register(BitcoinPriceFetcher.self) { r in
                BitcoinPriceFetcher(networking: try r.resolve(Networking.self))
            }
            .implements(PriceFetcher.self, name: "coinbase/BTC")
            return container
        }

        @Test
        func fetcherFromTheParentUsesRealNetworking() throws {
            let fetcher = try production().resolve(BitcoinPriceFetcher.self)

            #expect(fetcher.networking is HTTPNetworking)
            #expect(try fetcher.price() == "64000.00")
        }

        @Test
        func childContainerSwapsInSimulatedNetworkingWithoutTouchingTheParent() throws {
            let parent = production()
            let test = Container(parent: parent)
            test.register(Networking.self) { _ in SimulatedNetworking(answer: "1.00") }

            let simulated = try test.resolve(BitcoinPriceFetcher.self)
            let real = try parent.resolve(BitcoinPriceFetcher.self)
            let byName = try test.resolve(PriceFetcher.self, name: "coinbase/BTC")

            #expect(try simulated.price() == "1.00")
            #expect(simulated.networking is SimulatedNetworking)
            #expect(try real.price() == "64000.00")
            #expect(real.networking is HTTPNetworking)
            #expect((byName as? BitcoinPriceFetcher)?.networking is SimulatedNetworking)
        }

        // The Swinject Bitcoin tutorial.

        @Test
        func swinjectTutorialAutoregistersAndResolvesWithTheOperator() throws {
            let container = Container()
            container.autoregister(Networking.self, initializer: HTTPNetworking.init)
            container.autoregister(PriceFetcher.self, initializer: BitcoinPriceFetcher.init)
            container.autoregister(Networking.self, name: "simulated", initializer: OfflineNetworking.init)
            container.register(BitcoinPriceFetcher.self, name: "simulated") { r in
                BitcoinPriceFetcher(networking: try r ~> (Networking.self, name: "simulated"))
            }

            let fetcher = try container ~> PriceFetcher.self
            let simulated = try container ~> (BitcoinPriceFetcher.self, name: "simulated")

            #expect(try (fetcher as? BitcoinPriceFetcher)?.price() == "64000.00")
            #expect(try simulated.price() == "3.00")
        }

        // The Resolver tutorial.

        final class BitcoinViewModel {
            @Injected var fetcher: BitcoinPriceFetcher
            @LazyInjected var networking: Networking
            @Injected(name: "coinbase/BTC") var named: PriceFetcher
        }

        @Test
        func resolverTutorialInjectsFromMainWithItsRegistrations() throws {
            let model = BitcoinViewModel()

            #expect(try model.fetcher.price() == "64000.00")
            #expect(model.networking is HTTPNetworking)
            #expect(model.named.source == "coinbase/BTC")
        }

        @Test
        func resolverTutorialMockContainerReplacesTheRootAndIsPutBack() throws {
            let mock = Container(parent: .main)
            mock.register { SimulatedNetworking(answer: "2.00") }.implements(Networking.self)

            Container.root = mock
            let mocked = BitcoinViewModel()
            // Lazy: resolved at this first read, while the mock is the root.
            let mockedNetworking = mocked.networking
            Container.root = .main
            let real = BitcoinViewModel()

            #expect(try mocked.fetcher.price() == "2.00")
            #expect(mockedNetworking is SimulatedNetworking)
            #expect(real.networking is HTTPNetworking)
            #expect(try real.fetcher.price() == "64000.00")
        }

        @Test
        func resolverTutorialCachedScopeIsKeptUntilReset() throws {
            let container = Container()
            container.register { HTTPNetworking() }.implements(Networking.self)
            container.register { r in QuoteCache(networking: try r.resolve()) }.scope(.cached)

            let first = try container.resolve(QuoteCache.self)
            #expect(try container.resolve(QuoteCache.self) === first)

            Scope.cached.reset()

            #expect(try container.resolve(QuoteCache.self) !== first)
        }

        // The hand-made IoC container: lifecycles (transient, singleton) and modules.

        @Test
        func handMadeContainerLifecyclesAndModules() throws {
            let container = Container()
            container.install(NetworkingModule(), FetchersModule())

            let first = try container.resolve(BitcoinPriceFetcher.self)
            let second = try container.resolve(BitcoinPriceFetcher.self)

            #expect(first !== second)
            #expect(isSameInstance(first.networking, second.networking))
            #expect(try first.price() == "64000.00")
        }
    }
}
