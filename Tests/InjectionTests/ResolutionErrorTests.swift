import Injection
import Testing

private final class NodeA: Sendable {
    init() {}
}

private final class NodeB: Sendable {
    init() {}
}

private final class NodeC: Sendable {
    init() {}
}

struct ResolutionErrorTests {
    private func fetchers() -> Container {
        let container = Container()
        container.register(PriceFetcher.self, name: "coinbase/BTC") { _ in StubFetcher(source: "btc") }
        container.register(PriceFetcher.self, name: "coinbase/ETH") { _ in StubFetcher(source: "eth") }
        container.register(PriceFetcher.self, name: "file") { _ in StubFetcher(source: "file") }
        return container
    }

    @Test
    func missingNamedRegistrationNamesTheAlternatives() {
        let container = fetchers()

        let error = #expect(throws: ResolutionError.self) {
            try container.resolve(PriceFetcher.self, name: "coinbase/ETC")
        }

        #expect(error == ResolutionError(
            code: .missingRegistration,
            description: "no PriceFetcher named 'coinbase/ETC'; registered: coinbase/BTC, coinbase/ETH, file"))
    }

    @Test
    func missingNamedRegistrationListsTheUnnamedOneAndTheParentsNames() {
        let parent = fetchers()
        let child = Container(parent: parent)
        child.register(PriceFetcher.self) { _ in StubFetcher(source: "unnamed") }

        let error = #expect(throws: ResolutionError.self) {
            try child.resolve(PriceFetcher.self, name: "kraken")
        }

        #expect(error?.description == "no PriceFetcher named 'kraken'; registered: (unnamed), coinbase/BTC, coinbase/ETH, file")
    }

    @Test
    func missingUnnamedRegistrationNamesTheNamedOnes() {
        let container = fetchers()

        let error = #expect(throws: ResolutionError.self) { try container.resolve(PriceFetcher.self) }

        #expect(error == ResolutionError(
            code: .missingRegistration,
            description: "no PriceFetcher registered without a name; registered names: coinbase/BTC, coinbase/ETH, file"))
    }

    @Test
    func missingTypeSaysHowToRegisterIt() {
        let container = Container()

        let unnamed = #expect(throws: ResolutionError.self) { try container.resolve(PriceFetcher.self) }
        let named = #expect(throws: ResolutionError.self) { try container.resolve(PriceFetcher.self, name: "file") }

        #expect(unnamed == ResolutionError(
            code: .missingRegistration,
            description: "no PriceFetcher registered; register one with container.register(PriceFetcher.self) { … }"))
        #expect(named == ResolutionError(
            code: .missingRegistration,
            description: """
                no PriceFetcher named 'file'; none is registered; \
                register one with container.register(PriceFetcher.self, name: "file") { … }
                """))
    }

    @Test
    func missingDependencyIsReportedAsItselfNotWrapped() {
        let container = Container()
        container.register(Service.self) { r in Service(dependency: try r.resolve(Dependency.self)) }

        let error = #expect(throws: ResolutionError.self) { try container.resolve(Service.self) }

        #expect(error == ResolutionError(
            code: .missingRegistration,
            description: "no Dependency registered; register one with container.register(Dependency.self) { … }"))
    }

    @Test
    func dependencyCycleNamesThePath() {
        let container = Container()
        container.register(NodeA.self) { r in _ = try r.resolve(NodeB.self); return NodeA() }
        container.register(NodeB.self) { r in _ = try r.resolve(NodeA.self); return NodeB() }

        let error = #expect(throws: ResolutionError.self) { try container.resolve(NodeA.self) }

        #expect(error == ResolutionError(code: .dependencyCycle, description: "dependency cycle: NodeA -> NodeB -> NodeA"))
    }

    @Test
    func dependencyCycleNamesNamesAndTheWholePathFromTheTop() {
        let container = Container()
        container.register(NodeC.self) { r in _ = try r.resolve(NodeA.self, name: "x"); return NodeC() }
        container.register(NodeA.self, name: "x", scope: .transient) { r in _ = try r.resolve(NodeB.self); return NodeA() }
        container.register(NodeB.self) { r in _ = try r.resolve(NodeA.self, name: "x"); return NodeB() }

        let error = #expect(throws: ResolutionError.self) { try container.resolve(NodeC.self) }

        #expect(error?.description == "dependency cycle: NodeC -> NodeA(named 'x') -> NodeB -> NodeA(named 'x')")
    }

    @Test
    func selfDependencyIsACycle() {
        let container = Container()
        container.register(NodeA.self) { r in try r.resolve(NodeA.self) }

        let error = #expect(throws: ResolutionError.self) { try container.resolve(NodeA.self) }

        #expect(error?.description == "dependency cycle: NodeA -> NodeA")
    }

    @Test
    func dependencyCycleThroughSingletonsIsReportedNotDeadlocked() {
        let container = Container()
        container.register(NodeA.self, scope: .singleton) { r in _ = try r.resolve(NodeB.self); return NodeA() }
        container.register(NodeB.self, scope: .singleton) { r in _ = try r.resolve(NodeA.self); return NodeB() }
        container.register(NodeC.self) { r in _ = try r.resolve(NodeA.self); return NodeC() }

        let error = #expect(throws: ResolutionError.self) { try container.resolve(NodeC.self) }

        #expect(error?.description == "dependency cycle: NodeC -> NodeA -> NodeB -> NodeA")
    }

    @Test(arguments: [Scope.transient, .graph, .singleton, .weak, .cached, Scope(name: "session")])
    func cycleThroughInitializersNamesEveryStepInEveryScope(scope: Scope) {
        let container = Container()
        container.register(NodeA.self) { r in _ = try r.resolve(NodeB.self); return NodeA() }
        container.register(NodeB.self, scope: scope) { r in _ = try r.resolve(NodeC.self); return NodeB() }
        container.register(NodeC.self, scope: scope) { r in _ = try r.resolve(NodeB.self); return NodeC() }

        let error = #expect(throws: ResolutionError.self) { try container.resolve(NodeA.self) }

        // Never `NodeB -> NodeB`: the C in between is named, whichever scope keeps B and C.
        #expect(error?.description == "dependency cycle: NodeA -> NodeB -> NodeC -> NodeB")
    }

    @Test(arguments: [Scope.weak, .singleton, .transient])
    func cycleThroughAPropertyNamesTheRegistrationBeingCompleted(scope: Scope) {
        let container = Container()
        container.register(NodeA.self) { r in _ = try r.resolve(NodeB.self); return NodeA() }
        // A B made anew for every request (transient), or asked for again by a C that is
        // itself made anew (shared scopes): the cycle cannot close through C's property.
        container.register(NodeB.self, scope: scope) { r in _ = try r.resolve(NodeC.self); return NodeB() }
        container.register(NodeC.self, scope: .transient) { _ in NodeC() }
            .initCompleted { r, _ in _ = try r.resolve(NodeB.self) }

        let error = #expect(throws: ResolutionError.self) { try container.resolve(NodeA.self) }

        // C's factory has returned, but its `initCompleted` is a step of the path all the same.
        let expected = scope == .transient
            ? "dependency cycle: NodeA -> NodeB -> NodeC -> NodeB"
            : "dependency cycle: NodeA -> NodeB -> NodeC -> NodeB -> NodeC -> NodeB"
        #expect(error?.description == expected)
    }

    @Test
    func factoryFailureNamesTheRegistrationAndKeepsTheError() throws {
        let container = Container()
        container.register(PriceFetcher.self, name: "file") { _ in
            throw FailingFactory(description: "prices.json: no such file")
        }

        let error = try #require(throws: ResolutionError.self) {
            try container.resolve(PriceFetcher.self, name: "file")
        }

        #expect(error == ResolutionError(
            code: .factoryFailed,
            description: "factory for PriceFetcher named 'file' failed: prices.json: no such file"))
        let underlying = try #require(error.underlying as? FailingFactory)
        #expect(underlying.description == "prices.json: no such file")
    }

    @Test
    func nestedFactoryFailureIsReportedOnceForTheInnermostRegistration() throws {
        let container = Container()
        container.register(Dependency.self) { _ in throw FailingFactory(description: "disk full") }
        container.register(Service.self) { r in Service(dependency: try r.resolve(Dependency.self)) }
        container.register(Pair.self) { r in Pair(first: try r.resolve(Service.self), second: try r.resolve(Service.self)) }

        let error = try #require(throws: ResolutionError.self) { try container.resolve(Pair.self) }

        #expect(error == ResolutionError(code: .factoryFailed, description: "factory for Dependency failed: disk full"))
        #expect(error.underlying is FailingFactory)
    }

    @Test
    func argumentOfTheWrongTypeNamesBothTypes() {
        let container = Container()
        container.register(PriceFetcher.self, name: "rate") { (_, limit: Int) in StubFetcher(source: "\(limit)") }

        let error = #expect(throws: ResolutionError.self) {
            try container.resolve(PriceFetcher.self, name: "rate", argument: "ten")
        }

        #expect(error == ResolutionError(
            code: .argumentTypeMismatch,
            description: "PriceFetcher named 'rate' takes an argument of type Int, but was resolved with String"))
    }

    @Test
    func missingArgumentSaysWhichResolveToUse() {
        let container = Container()
        container.register(PriceFetcher.self) { (_, limit: Int) in StubFetcher(source: "\(limit)") }

        let error = #expect(throws: ResolutionError.self) { try container.resolve(PriceFetcher.self) }

        #expect(error == ResolutionError(
            code: .argumentTypeMismatch,
            description: "PriceFetcher takes an argument of type Int; resolve it with resolve(_:name:argument:)"))
    }

    @Test
    func unexpectedArgumentSaysWhichResolveToUse() {
        let container = Container()
        container.register(PriceFetcher.self) { _ in StubFetcher(source: "plain") }

        let error = #expect(throws: ResolutionError.self) { try container.resolve(PriceFetcher.self, argument: 3) }

        #expect(error == ResolutionError(
            code: .argumentTypeMismatch,
            description: "PriceFetcher takes no argument, but was resolved with one of type Int; resolve it with resolve(_:name:)"))
    }

    @Test
    func argumentChecksApplyToNestedResolves() {
        let container = Container()
        container.register(Dependency.self) { (_, _: Int) in Dependency() }
        container.register(Service.self) { r in Service(dependency: try r.resolve(Dependency.self, argument: 1.5)) }

        let error = #expect(throws: ResolutionError.self) { try container.resolve(Service.self) }

        #expect(error?.description == "Dependency takes an argument of type Int, but was resolved with Double")
    }

    @Test
    func codesDescribeThemselves() {
        #expect(ResolutionError.Code.missingRegistration.description == "missingRegistration")
        #expect(ResolutionError.Code.dependencyCycle.description == "dependencyCycle")
        #expect(ResolutionError.Code.argumentTypeMismatch.description == "argumentTypeMismatch")
        #expect(ResolutionError.Code.factoryFailed.description == "factoryFailed")
        #expect(ResolutionError.Code.typeMismatch.description == "typeMismatch")
    }

    @Test
    func equalityIgnoresTheUnderlyingError() {
        let first = ResolutionError(code: .factoryFailed, description: "x", underlying: FailingFactory(description: "a"))
        let second = ResolutionError(code: .factoryFailed, description: "x", underlying: nil)

        #expect(first == second)
        #expect(first != ResolutionError(code: .dependencyCycle, description: "x"))
    }
}
