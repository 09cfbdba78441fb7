import Injection
import Testing

struct ChildContainerTests {
    @Test
    func childSeesItsParentsRegistrations() throws {
        let parent = Container()
        parent.register(PriceFetcher.self) { _ in StubFetcher(source: "parent") }
        let child = Container(parent: parent)

        #expect(try child.resolve(PriceFetcher.self).source == "parent")
        #expect(child.parent === parent)
    }

    @Test
    func childOverrideLeavesTheParentAlone() throws {
        let parent = Container()
        parent.register(PriceFetcher.self) { _ in StubFetcher(source: "parent") }
        let child = Container(parent: parent)
        child.register(PriceFetcher.self) { _ in StubFetcher(source: "child") }

        #expect(try child.resolve(PriceFetcher.self).source == "child")
        #expect(try parent.resolve(PriceFetcher.self).source == "parent")
    }

    @Test
    func dependenciesOfAParentRegistrationUseTheChildsOverride() throws {
        let parent = Container()
        parent.register(Dependency.self, name: "which") { _ in Dependency() }
        parent.register(PriceFetcher.self, name: "source") { _ in StubFetcher(source: "parent") }
        parent.register(PriceFetcher.self) { r in
            StubFetcher(source: "wraps " + (try r.resolve(PriceFetcher.self, name: "source")).source)
        }
        let child = Container(parent: parent)
        child.register(PriceFetcher.self, name: "source") { _ in StubFetcher(source: "child") }

        #expect(try child.resolve(PriceFetcher.self).source == "wraps child")
        #expect(try parent.resolve(PriceFetcher.self).source == "wraps parent")
    }

    @Test
    func parentSingletonStaysWithTheParentAndUsesTheParentsDependencies() throws {
        let parent = Container()
        parent.register(PriceFetcher.self, name: "source") { _ in StubFetcher(source: "parent") }
        parent.register(PriceFetcher.self, scope: .singleton) { r in
            StubFetcher(source: "wraps " + (try r.resolve(PriceFetcher.self, name: "source")).source)
        }
        let child = Container(parent: parent)
        child.register(PriceFetcher.self, name: "source") { _ in StubFetcher(source: "child") }

        // Resolved first through the child, the singleton is still the parent's own.
        let throughChild = try child.resolve(PriceFetcher.self)
        let throughParent = try parent.resolve(PriceFetcher.self)

        #expect(throughChild.source == "wraps parent")
        #expect(isSameInstance(throughChild, throughParent))
    }

    @Test
    func childRegisteringTheSameSingletonGetsItsOwnInstance() throws {
        let parent = Container()
        parent.register(Dependency.self, scope: .singleton) { _ in Dependency() }
        let child = Container(parent: parent)
        child.register(Dependency.self, scope: .singleton) { _ in Dependency() }

        let fromChild = try child.resolve(Dependency.self)

        #expect(fromChild === (try child.resolve(Dependency.self)))
        #expect(fromChild !== (try parent.resolve(Dependency.self)))
    }

    @Test
    func siblingChildrenDoNotSeeEachOthersOverrides() throws {
        let parent = Container()
        parent.register(PriceFetcher.self) { _ in StubFetcher(source: "parent") }
        let first = Container(parent: parent)
        first.register(PriceFetcher.self) { _ in StubFetcher(source: "first") }
        let second = Container(parent: parent)

        #expect(try first.resolve(PriceFetcher.self).source == "first")
        #expect(try second.resolve(PriceFetcher.self).source == "parent")
    }
}
