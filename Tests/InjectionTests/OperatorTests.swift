import Injection
import Testing

struct OperatorTests {
    private func fetchers() -> Container {
        let container = Container()
        container.register(PriceFetcher.self) { _ in StubFetcher(source: "unnamed") }
        container.register(PriceFetcher.self, name: "file") { _ in StubFetcher(source: "file") }
        container.register(PriceFetcher.self) { (_, source: String) in StubFetcher(source: source) }
        container.register(PriceFetcher.self, name: "file") { (_, count: Int) in StubFetcher(source: "file \(count)") }
        container.register(PriceFetcher.self) { (_, source: String, count: Int) in StubFetcher(source: "\(source) \(count)") }
        return container
    }

    @Test
    func resolvesByTypeNameAndArgument() throws {
        let container = fetchers()

        #expect(try (container ~> PriceFetcher.self).source == "unnamed")
        #expect(try (container ~> (PriceFetcher.self, name: "file")).source == "file")
        #expect(try (container ~> (PriceFetcher.self, argument: "given")).source == "given")
        #expect(try (container ~> (PriceFetcher.self, name: "file", argument: 2)).source == "file 2")
        #expect(try (container ~> (PriceFetcher.self, arguments: ("pair", 3))).source == "pair 3")
    }

    @Test
    func worksOnTheResolverInAFactory() throws {
        let container = Container()
        container.register(Dependency.self) { _ in Dependency() }
        container.register(Pair.self) { r in
            Pair(first: Service(dependency: try r ~> Dependency.self), second: Service(dependency: try r ~> Dependency.self))
        }

        let pair = try container ~> Pair.self

        #expect(pair.first.dependency === pair.second.dependency)
    }

    @Test
    func throwsWhatResolveThrows() {
        let error = #expect(throws: ResolutionError.self) { try fetchers() ~> (PriceFetcher.self, name: "coinbase") }

        #expect(error?.description == "no PriceFetcher named 'coinbase'; registered: (unnamed), file")
    }
}
