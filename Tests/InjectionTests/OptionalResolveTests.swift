import Injection
import Testing

struct OptionalResolveTests {
    @Test
    func optionalOfAMissingRegistrationIsNil() throws {
        let container = Container()

        #expect(try container.resolve(PriceFetcher?.self) == nil)
        #expect(try container.resolveIfRegistered(PriceFetcher.self, name: "file") == nil)
        #expect(try container.resolveIfRegistered(PriceFetcher.self, name: "file", argument: 1) == nil)
    }

    @Test
    func optionalOfARegistrationIsTheService() throws {
        let container = Container()
        container.register(PriceFetcher.self) { _ in StubFetcher(source: "unnamed") }
        container.register(PriceFetcher.self, name: "file") { _ in StubFetcher(source: "file") }
        container.register(PriceFetcher.self, name: "file") { (_, source: String) in StubFetcher(source: source) }

        #expect(try container.resolve(PriceFetcher?.self)?.source == "unnamed")
        #expect(try container.resolve(PriceFetcher?.self, name: "file")?.source == "file")
        #expect(try container.resolveIfRegistered(PriceFetcher.self, name: "file", argument: "given")?.source == "given")
        #expect(try container.resolve(PriceFetcher?.self, name: "other") == nil)
    }

    @Test
    func optionalAsADependencyIsNilWhenMissing() throws {
        final class Holder: Sendable {
            let fetcher: (any PriceFetcher)?
            init(fetcher: (any PriceFetcher)?) { self.fetcher = fetcher }
        }
        let container = Container()
        container.register(Holder.self) { r in Holder(fetcher: try r.resolve(PriceFetcher?.self)) }
        let child = Container(parent: container)
        child.register(PriceFetcher.self) { _ in StubFetcher(source: "child") }

        #expect(try container.resolve(Holder.self).fetcher == nil)
        #expect(try child.resolve(Holder.self).fetcher?.source == "child")
        // The generic path (an Optional as the Service type) agrees.
        #expect(try container.resolve(Optional<any PriceFetcher>.self, name: nil) == nil)
    }

    @Test
    func everyOtherFailureStillThrows() {
        let container = Container()
        container.register(Service.self) { r in Service(dependency: try r.resolve(Dependency.self)) }
        container.register(PriceFetcher.self) { _ in throw FailingFactory(description: "offline") }

        let missingDependency = #expect(throws: ResolutionError.self) { try container.resolve(Service?.self) }
        let failed = #expect(throws: ResolutionError.self) { try container.resolveIfRegistered(PriceFetcher.self) }

        #expect(missingDependency?.code == .missingRegistration)
        #expect(missingDependency?.description.hasPrefix("no Dependency registered") == true)
        #expect(failed?.description == "factory for PriceFetcher failed: offline")
    }
}
