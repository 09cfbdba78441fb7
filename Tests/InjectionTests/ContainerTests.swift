import Injection
import Testing

struct ContainerTests {
    @Test
    func resolvesWhatWasRegistered() throws {
        let container = Container()
        container.register(PriceFetcher.self) { _ in StubFetcher(source: "stub") }

        let fetcher = try container.resolve(PriceFetcher.self)

        #expect(fetcher.source == "stub")
    }

    @Test
    func namedRegistrationsAreKeptApart() throws {
        let container = Container()
        container.register(PriceFetcher.self) { _ in StubFetcher(source: "unnamed") }
        container.register(PriceFetcher.self, name: "coinbase/BTC") { _ in StubFetcher(source: "btc") }
        container.register(PriceFetcher.self, name: "coinbase/ETH") { _ in StubFetcher(source: "eth") }

        #expect(try container.resolve(PriceFetcher.self).source == "unnamed")
        #expect(try container.resolve(PriceFetcher.self, name: "coinbase/BTC").source == "btc")
        #expect(try container.resolve(PriceFetcher.self, name: "coinbase/ETH").source == "eth")
    }

    @Test
    func laterRegistrationReplacesEarlierOne() throws {
        let container = Container()
        container.register(PriceFetcher.self) { _ in StubFetcher(source: "first") }
        container.register(PriceFetcher.self) { _ in StubFetcher(source: "second") }

        #expect(try container.resolve(PriceFetcher.self).source == "second")
    }

    @Test
    func factoryResolvesItsDependenciesThroughTheResolver() throws {
        let container = Container()
        container.register(Dependency.self) { _ in Dependency() }
        container.register(Service.self) { r in Service(dependency: try r.resolve(Dependency.self)) }

        let service = try container.resolve(Service.self)

        _ = service.dependency
    }

    @Test
    func resolvingThroughTheContainerInsideAFactoryStartsASeparateResolution() throws {
        let container = Container()
        let calls = Counter()
        container.register(Dependency.self) { _ in Dependency() }
        // The same registration resolved again from inside its own factory, as a new top-level
        // resolve: it must get a resolution of its own, and leave the outer one's graph intact.
        container.register(Pair.self, scope: .transient) { [unowned container] r in
            let first = Service(dependency: try r.resolve(Dependency.self))
            if calls.increment() == 1 {
                let inner = try container.resolve(Pair.self)
                #expect(inner.first.dependency === inner.second.dependency)
                #expect(inner.first.dependency !== first.dependency)
            }
            return Pair(first: first, second: Service(dependency: try r.resolve(Dependency.self)))
        }

        let pair = try container.resolve(Pair.self)
        let next = try container.resolve(Pair.self)

        #expect(calls.count == 3)
        #expect(pair.first.dependency === pair.second.dependency)
        #expect(next.first.dependency === next.second.dependency)
        #expect(next.first.dependency !== pair.first.dependency)
    }

    @Test
    func replacedRegistrationIsFreedOnceResolutionsThatUsedItAreDone() throws {
        final class Token: Sendable {}
        let container = Container()
        weak var released: Token?
        do {
            let token = Token()
            released = token
            // Resolved as a dependency (so a resolution records it) and at top level, on a
            // container whose resolutions are then reused.
            container.register(Dependency.self) { _ in
                withExtendedLifetime(token) { Dependency() }
            }
            container.register(Service.self) { r in Service(dependency: try r.resolve(Dependency.self)) }
            for _ in 0..<3 {
                _ = try container.resolve(Service.self)
                _ = try container.resolve(Dependency.self)
            }
        }
        #expect(released != nil)

        container.register(Dependency.self) { _ in Dependency() }
        _ = try container.resolve(Service.self)

        #expect(released == nil)
    }

    @Test
    func resolverKeptByAFactoryStillWorksAfterItsResolveAndItsContainerAreGone() throws {
        final class Holder: Sendable {
            let resolver: any Resolver
            let dependency: Dependency

            init(resolver: any Resolver, dependency: Dependency) {
                self.resolver = resolver
                self.dependency = dependency
            }
        }
        let holder: Holder
        do {
            let container = Container()
            container.register(Dependency.self) { _ in Dependency() }
            container.register(Holder.self, scope: .transient) { r in
                Holder(resolver: r, dependency: try r.resolve(Dependency.self))
            }
            holder = try container.resolve(Holder.self)
            let other = try container.resolve(Holder.self)

            // A kept resolver is never handed to another resolve.
            #expect(!isSameInstance(holder.resolver, other.resolver))
            #expect(other.dependency !== holder.dependency)
        }

        // Misuse (a resolver is for the factory's duration), but still safe, and still the
        // same resolution: its graph instance, looked up in the container it kept alive.
        #expect(try holder.resolver.resolve(Dependency.self) === holder.dependency)
    }

    @Test
    func nonSendableServicesResolveInTransientAndGraphScope() throws {
        let container = Container()
        container.register(Scratchpad.self, name: "transient", scope: .transient) { _ in Scratchpad() }
        container.register(Scratchpad.self, name: "graph") { _ in Scratchpad() }

        let transient = try container.resolve(Scratchpad.self, name: "transient")
        let graph = try container.resolve(Scratchpad.self, name: "graph")

        #expect(transient !== graph)
    }

    @Test
    func namesListsThisContainersAndAncestorsSortedWithoutDuplicatesOrUnnamed() {
        let parent = Container()
        parent.register(PriceFetcher.self) { _ in StubFetcher(source: "unnamed") }
        parent.register(PriceFetcher.self, name: "file") { _ in StubFetcher(source: "file") }
        parent.register(PriceFetcher.self, name: "coinbase/ETH") { _ in StubFetcher(source: "eth") }
        let child = Container(parent: parent)
        child.register(PriceFetcher.self, name: "coinbase/BTC") { _ in StubFetcher(source: "btc") }
        child.register(PriceFetcher.self, name: "file") { _ in StubFetcher(source: "file in child") }
        child.register(Dependency.self, name: "not a fetcher") { _ in Dependency() }

        #expect(child.names(for: PriceFetcher.self) == ["coinbase/BTC", "coinbase/ETH", "file"])
        #expect(parent.names(for: PriceFetcher.self) == ["coinbase/ETH", "file"])
        #expect(child.names(for: Service.self) == [])
    }

    @Test
    func hasRegistrationLooksInAncestors() {
        let parent = Container()
        parent.register(PriceFetcher.self, name: "file") { _ in StubFetcher(source: "file") }
        let child = Container(parent: parent)
        child.register(Dependency.self) { _ in Dependency() }

        #expect(child.hasRegistration(PriceFetcher.self, name: "file"))
        #expect(child.hasRegistration(Dependency.self))
        #expect(!child.hasRegistration(PriceFetcher.self))
        #expect(!parent.hasRegistration(Dependency.self))
    }

    @Test
    func installAppliesModulesInOrder() throws {
        struct First: Module {
            func register(into container: Container) {
                container.register(PriceFetcher.self) { _ in StubFetcher(source: "first") }
                container.register(PriceFetcher.self, name: "only first") { _ in StubFetcher(source: "first") }
            }
        }
        struct Second: Module {
            func register(into container: Container) {
                container.register(PriceFetcher.self) { _ in StubFetcher(source: "second") }
            }
        }
        let variadic = Container()
        variadic.install(First(), Second())
        let array = Container()
        array.install([Second(), First()])

        #expect(try variadic.resolve(PriceFetcher.self).source == "second")
        #expect(try variadic.resolve(PriceFetcher.self, name: "only first").source == "first")
        #expect(try array.resolve(PriceFetcher.self).source == "first")
    }

    @Test
    func registeringClosureRegistersAtInit() throws {
        let container = Container(defaultScope: .singleton) { c in
            c.register(Dependency.self) { _ in Dependency() }
        }

        #expect(try container.resolve(Dependency.self) === container.resolve(Dependency.self))
    }

    @Test
    func synchronizeIsTheContainerItself() throws {
        let container = Container()
        container.register(PriceFetcher.self) { _ in StubFetcher(source: "same") }

        let resolver = container.synchronize()

        #expect(isSameInstance(resolver, container))
        #expect(try resolver.resolve(PriceFetcher.self).source == "same")
    }
}
