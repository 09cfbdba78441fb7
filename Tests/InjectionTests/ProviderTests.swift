import Injection
import Testing

/// Swinject's `ProviderTests`: a `Provider<T>` resolves anew on every `.instance`.
struct ProviderTests {
    final class Holder {
        let dependency: Dependency
        let provider: Provider<Dependency>

        init(dependency: Dependency, provider: Provider<Dependency>) {
            (self.dependency, self.provider) = (dependency, provider)
        }
    }

    @Test
    func resolvesOnEveryAccessAndNotBefore() throws {
        let container = Container()
        let made = Counter()
        container.register(Dependency.self, scope: .transient) { _ in
            made.increment()
            return Dependency()
        }

        let provider = try container.resolve(Provider<Dependency>.self)
        #expect(made.count == 0)

        #expect(provider.instance !== provider.instance)
        #expect(made.count == 2)
    }

    @Test
    func theScopeDecides() throws {
        let container = Container()
        container.register(Dependency.self, name: "graph") { _ in Dependency() }
        container.register(Dependency.self, name: "singleton", scope: .singleton) { _ in Dependency() }

        let graph = try container.resolve(Provider<Dependency>.self, name: "graph")
        let singleton = try container.resolve(Provider<Dependency>.self, name: "singleton")

        // Resolved at top level, each access is its own graph.
        #expect(graph.instance !== graph.instance)
        #expect(singleton.instance === singleton.instance)
    }

    @Test
    func providedDependenciesDifferAndOthersAreTheGraphs() throws {
        let container = Container()
        container.register(Dependency.self, scope: .transient) { _ in Dependency() }
        container.register(Holder.self) { r in
            Holder(dependency: try r.resolve(Dependency.self), provider: try r.resolve(Provider<Dependency>.self))
        }

        let holder = try container.resolve(Holder.self)

        #expect(holder.provider.instance !== holder.dependency)
        #expect(holder.provider.instance !== holder.provider.instance)
    }

    /// Holds a provider of services that depend on a graph-scope dependency.
    final class Screen {
        let dependency: Dependency
        let services: Provider<Service>

        init(dependency: Dependency, services: Provider<Service>) {
            (self.dependency, self.services) = (dependency, services)
        }
    }

    @Test
    func aProviderMadeInAFactoryStartsANewGraphOnEachAccessOnceTheResolveReturned() throws {
        let container = Container()
        container.register(Dependency.self) { _ in Dependency() }
        container.register(Service.self) { r in Service(dependency: try r.resolve(Dependency.self)) }
        container.register(Screen.self) { r in
            Screen(dependency: try r.resolve(Dependency.self), services: try r.resolve(Provider<Service>.self))
        }

        let screen = try container.resolve(Screen.self)
        let (first, second) = (screen.services.instance, screen.services.instance)

        // As in Swinject: each access is a graph of its own, not the screen's finished one.
        #expect(first !== second)
        #expect(first.dependency !== second.dependency)
        #expect(first.dependency !== screen.dependency)
    }

    @Test
    func aProviderUsedWhileItsResolveRunsSharesThatGraph() throws {
        let container = Container()
        container.register(Dependency.self) { _ in Dependency() }
        container.register(Service.self) { r in Service(dependency: try r.resolve(Dependency.self)) }
        container.register(Pair.self) { r in
            let services = try r.resolve(Provider<Service>.self)
            return Pair(first: services.instance, second: services.instance)
        }

        let pair = try container.resolve(Pair.self)

        #expect(pair.first === pair.second)
        #expect(pair.first.dependency === pair.second.dependency)
    }

    @Test
    func argumentNameAndForwardedType() throws {
        let container = Container()
        container.register(PriceFetcher.self) { (_, source: String) in StubFetcher(source: source) }
        container.register(StubFetcher.self) { _ in StubFetcher(source: "forwarded") }
            .implements(PriceFetcher.self, name: "stub")

        #expect(try container.resolve(Provider<PriceFetcher>.self, argument: "Hachi").instance.source == "Hachi")
        #expect(try container.resolve(Provider<PriceFetcher>.self, name: "stub").instance.source == "forwarded")
        #expect(throws: ResolutionError.self) { try container.resolve(Provider<PriceFetcher>.self, name: "other") }
        #expect(try container.resolve(Provider<Dependency>?.self) == nil)
    }
}
