import Injection
import Testing

struct ScopeTests {
    @Test
    func transientMakesANewInstanceEveryTime() throws {
        let container = Container()
        container.register(Dependency.self, scope: .transient) { _ in Dependency() }
        container.register(Service.self, scope: .transient) { r in Service(dependency: try r.resolve(Dependency.self)) }
        container.register(Pair.self) { r in Pair(first: try r.resolve(Service.self), second: try r.resolve(Service.self)) }

        let pair = try container.resolve(Pair.self)

        #expect(try container.resolve(Dependency.self) !== container.resolve(Dependency.self))
        #expect(pair.first !== pair.second)
        #expect(pair.first.dependency !== pair.second.dependency)
    }

    @Test
    func graphIsTheDefaultAndIsSharedWithinOneResolution() throws {
        let container = Container()
        container.register(Dependency.self) { _ in Dependency() }
        container.register(Service.self, scope: .transient) { r in Service(dependency: try r.resolve(Dependency.self)) }
        container.register(Pair.self) { r in Pair(first: try r.resolve(Service.self), second: try r.resolve(Service.self)) }

        let pair = try container.resolve(Pair.self)
        let other = try container.resolve(Pair.self)

        #expect(pair.first !== pair.second)
        #expect(pair.first.dependency === pair.second.dependency)
        #expect(other.first.dependency !== pair.first.dependency)
    }

    @Test
    func graphWithAnArgumentIsMadeAnewForEachResolve() throws {
        let container = Container()
        container.register(PriceFetcher.self) { (_, source: String) in StubFetcher(source: source) }
        container.register(Pair.self) { r in
            let first: any PriceFetcher = try r.resolve(PriceFetcher.self, argument: "one")
            let second: any PriceFetcher = try r.resolve(PriceFetcher.self, argument: "two")
            #expect(first.source == "one")
            #expect(second.source == "two")
            return Pair(first: Service(dependency: Dependency()), second: Service(dependency: Dependency()))
        }

        _ = try container.resolve(Pair.self)
    }

    @Test
    func singletonIsMadeOnceAndSharedAcrossResolutions() throws {
        let container = Container()
        let made = Counter()
        container.register(Dependency.self, scope: .singleton) { _ in
            made.increment()
            return Dependency()
        }

        let first = try container.resolve(Dependency.self)
        let second = try container.resolve(Dependency.self)

        #expect(first === second)
        #expect(made.count == 1)
    }

    @Test
    func singletonIsMadeLazily() throws {
        let container = Container()
        let made = Counter()
        container.register(Dependency.self, scope: .singleton) { _ in
            made.increment()
            return Dependency()
        }

        #expect(made.count == 0)
        _ = try container.resolve(Dependency.self)
        #expect(made.count == 1)
    }

    @Test
    func singletonWhoseFactoryThrewIsMadeOnTheNextResolve() throws {
        let container = Container()
        let attempts = Counter()
        container.register(Dependency.self, scope: .singleton) { _ in
            if attempts.increment() == 1 {
                throw FailingFactory(description: "not yet")
            }
            return Dependency()
        }

        #expect(throws: ResolutionError.self) { try container.resolve(Dependency.self) }
        let made = try container.resolve(Dependency.self)

        #expect(try container.resolve(Dependency.self) === made)
        #expect(attempts.count == 2)
    }

    @Test
    func singletonWithAnArgumentKeepsTheFirstInstance() throws {
        let container = Container()
        container.register(PriceFetcher.self, scope: .singleton) { (_, source: String) in StubFetcher(source: source) }

        let first = try container.resolve(PriceFetcher.self, argument: "first")
        let second = try container.resolve(PriceFetcher.self, argument: "second")

        #expect(first.source == "first")
        #expect(second.source == "first")
    }

    @Test
    func weakIsSharedWhileHeldThenMadeAnew() throws {
        let container = Container()
        let made = Counter()
        container.register(Dependency.self, scope: .weak) { _ in
            made.increment()
            return Dependency()
        }

        var held: Dependency? = try container.resolve(Dependency.self)
        #expect(try container.resolve(Dependency.self) === held)
        #expect(made.count == 1)

        held = nil
        _ = try container.resolve(Dependency.self)

        #expect(made.count == 2)
    }

    @Test
    func weakWorksForAProtocolTypeBackedByAClass() throws {
        let container = Container()
        container.register(PriceFetcher.self, scope: .weak) { _ in StubFetcher(source: "weak") }

        let held = try container.resolve(PriceFetcher.self)
        let again = try container.resolve(PriceFetcher.self)

        #expect(isSameInstance(held, again))
    }

    @Test
    func weakValueTypeBehavesAsTransient() throws {
        let container = Container()
        let made = Counter()
        container.register(Plain.self, scope: .weak) { _ in Plain(id: made.increment()) }

        #expect(try container.resolve(Plain.self) == Plain(id: 1))
        #expect(try container.resolve(Plain.self) == Plain(id: 2))
    }
}
