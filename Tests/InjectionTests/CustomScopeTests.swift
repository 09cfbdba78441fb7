import Injection
import Synchronization
import Testing

/// A user-defined storage: keeps the instance, and counts what the container asks of it.
final class CountingStorage: InstanceStorage {
    private let kept = Mutex<(any Sendable)?>(nil)
    let stores = Counter()

    var instance: (any Sendable)? {
        kept.withLock { $0 }
    }

    func store(_ instance: any Sendable) {
        stores.increment()
        kept.withLock { $0 = instance }
    }

    func reset() {
        kept.withLock { $0 = nil }
    }
}

/// Swinject's `ContainerTests.CustomScope` and resetObjectScope.
struct CustomScopeTests {
    @Test
    func eachRegistrationGetsItsOwnStorageWhichKeepsTheInstance() throws {
        let storages = Recorder<CountingStorage>()
        let scope = Scope(name: "counted") {
            let storage = CountingStorage()
            storages.append(storage)
            return storage
        }
        let container = Container()
        container.register(Dependency.self, scope: scope) { _ in Dependency() }
        container.register(PriceFetcher.self, scope: scope) { _ in StubFetcher(source: "kept") }

        let dependency = try container.resolve(Dependency.self)

        #expect(storages.values.count == 2)
        #expect(try container.resolve(Dependency.self) === dependency)
        #expect(storages.values.map(\.stores.count).sorted() == [0, 1])
        #expect(scope.description == "counted")
    }

    @Test
    func anInstanceAlreadyInTheStorageIsReturned() throws {
        let storage = CountingStorage()
        let preset = Dependency()
        storage.store(preset)
        let container = Container()
        container.register(Dependency.self, scope: Scope(name: "preset", storage: { storage })) { _ in Dependency() }

        #expect(try container.resolve(Dependency.self) === preset)
    }

    @Test
    func resetObjectScopeEmptiesThatScopeInTheContainerAndItsAncestors() throws {
        let session = Scope(name: "session")
        let parent = Container()
        parent.register(Dependency.self, name: "parent", scope: session) { _ in Dependency() }
        let container = Container(parent: parent)
        container.register(Dependency.self, name: "session", scope: session) { _ in Dependency() }
        container.register(Dependency.self, name: "singleton", scope: .singleton) { _ in Dependency() }
        container.register(Dependency.self, name: "other session", scope: Scope(name: "session")) { _ in Dependency() }
        let before = try ["parent", "session", "singleton", "other session"].map { try container.resolve(Dependency.self, name: $0) }

        container.resetObjectScope(session)
        let after = try ["parent", "session", "singleton", "other session"].map { try container.resolve(Dependency.self, name: $0) }

        // As Swinject's: the parent's instances in that scope go too. A scope of the same name
        // is another scope.
        #expect(zip(before, after).map { $0 === $1 } == [false, false, true, true])
    }

    @Test
    func resettingAScopeFromAChildEmptiesTheParentsInstancesInIt() throws {
        let session = Scope(name: "session")
        let app = Container()
        app.register(Dependency.self, scope: session) { _ in Dependency() }
        app.register(PriceFetcher.self, scope: .singleton) { _ in StubFetcher(source: "app") }
        let test = Container(parent: app)
        let (dependency, fetcher) = (try test.resolve(Dependency.self), try test.resolve(PriceFetcher.self))

        test.resetObjectScope(session)
        test.resetObjectScope(.singleton)

        // The instances live in the parent's registrations; the child's reset empties them.
        #expect(try test.resolve(Dependency.self) !== dependency)
        #expect(try app.resolve(Dependency.self) === test.resolve(Dependency.self))
        #expect(!isSameInstance(try app.resolve(PriceFetcher.self), fetcher))
    }

    @Test
    func resettingTheParentLeavesItsChildrensOwnInstances() throws {
        let app = Container()
        let test = Container(parent: app)
        test.register(Dependency.self, scope: .singleton) { _ in Dependency() }
        let dependency = try test.resolve(Dependency.self)

        app.resetObjectScope(.singleton)

        #expect(try test.resolve(Dependency.self) === dependency)
    }

    @Test
    func scopeResetEmptiesItInEveryContainer() throws {
        let session = Scope(name: "session")
        let first = Container()
        let second = Container()
        first.register(Dependency.self, scope: session) { _ in Dependency() }
        second.register(Dependency.self, scope: session) { _ in Dependency() }
        let before = (try first.resolve(Dependency.self), try second.resolve(Dependency.self))

        session.reset()

        #expect(try first.resolve(Dependency.self) !== before.0)
        #expect(try second.resolve(Dependency.self) !== before.1)
    }

    @Test
    func resetSingletonsForTests() throws {
        let container = Container()
        let made = Counter()
        container.register(Dependency.self, scope: .singleton) { _ in
            made.increment()
            return Dependency()
        }
        container.register(PriceFetcher.self, scope: .weak) { _ in StubFetcher(source: "weak") }
        let singleton = try container.resolve(Dependency.self)
        let weak = try container.resolve(PriceFetcher.self)

        container.resetObjectScope(.singleton)
        container.resetObjectScope(.weak)

        #expect(try container.resolve(Dependency.self) !== singleton)
        #expect(!isSameInstance(try container.resolve(PriceFetcher.self), weak))
        #expect(made.count == 2)
    }

    @Test
    func defaultScopeAppliesToRegistrationsThatNameNone() throws {
        let container = Container(defaultScope: .singleton)
        container.register(Dependency.self) { _ in Dependency() }
        container.register(PriceFetcher.self, scope: .transient) { _ in StubFetcher(source: "transient") }
        // Not Sendable, so not shared: graph instead.
        container.register(Scratchpad.self) { _ in Scratchpad() }

        #expect(container.defaultScope == .singleton)
        #expect(try container.resolve(Dependency.self) === container.resolve(Dependency.self))
        #expect(!isSameInstance(try container.resolve(PriceFetcher.self), try container.resolve(PriceFetcher.self)))
        #expect(try container.resolve(Scratchpad.self) !== container.resolve(Scratchpad.self))
    }

    @Test
    func removeAllForgetsEveryRegistrationButTheParents() throws {
        let parent = Container()
        parent.register(PriceFetcher.self) { _ in StubFetcher(source: "parent") }
        let container = Container(parent: parent)
        container.register(PriceFetcher.self) { _ in StubFetcher(source: "child") }
        container.register(Dependency.self) { _ in Dependency() }

        container.removeAll()

        #expect(try container.resolve(PriceFetcher.self).source == "parent")
        #expect(try container.resolve(Dependency?.self) == nil)
        #expect(container.description == "[]")
    }

    @Test
    func scopeModifierMovesTheRegistrationAndItsForwardedTypes() throws {
        let container = Container()
        container.register { StubFetcher(source: "moved") }
            .implements(PriceFetcher.self)
            .inObjectScope(.container)

        let concrete = try container.resolve(StubFetcher.self)

        #expect(isSameInstance(try container.resolve(PriceFetcher.self), concrete))
        #expect(try container.resolve(StubFetcher.self) === concrete)
    }
}

/// Resolver's scope tests: application, cached, graph, shared, unique.
struct ResolverScopeTests {
    @Test
    func applicationIsOneInstance() throws {
        let container = Container()
        container.register { Dependency() }.scope(.application)

        #expect(try container.resolve(Dependency.self) === container.resolve(Dependency.self))
    }

    @Test
    func cachedIsOneInstanceUntilItsContainerResetsIt() throws {
        let container = Container()
        container.register { Dependency() }.scope(.cached)
        let first = try container.resolve(Dependency.self)
        #expect(try container.resolve(Dependency.self) === first)

        // Only this container's: `Scope.cached.reset()` (SeedExampleTests) empties every one.
        container.resetObjectScope(.cached)

        #expect(try container.resolve(Dependency.self) !== first)
    }

    @Test
    func resolversAndSwinjectsNamesAreTheSameScopes() {
        #expect(Scope.application == .singleton)
        #expect(Scope.container == .singleton)
        #expect(Scope.shared == .weak)
        #expect(Scope.unique == .transient)
        #expect(UnsharedScope.unique == .transient)
        #expect(Scope.cached != .singleton)
        #expect(Scope(name: "cached") != .cached)
    }

    @Test
    func uniqueIsNewEachTimeAndGraphIsSharedInOneResolve() throws {
        let container = Container()
        container.register { Dependency() }.scope(.unique)
        container.register(Service.self) { r in Service(dependency: try r.resolve()) }
        container.register(Dependency.self, name: "graph") { Dependency() }
        container.register(Pair.self) { r in
            let dependency: Dependency = try r.resolve(Dependency.self, name: "graph")
            return Pair(first: Service(dependency: dependency), second: Service(dependency: try r.resolve(Dependency.self, name: "graph")))
        }

        #expect(try container.resolve(Dependency.self) !== container.resolve(Dependency.self))
        let pair = try container.resolve(Pair.self)
        #expect(pair.first.dependency === pair.second.dependency)
    }
}
