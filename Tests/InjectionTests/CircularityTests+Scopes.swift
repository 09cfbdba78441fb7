import Injection
import Testing

/// Cycles across scopes: a graph parent with a shared child and the other way round, a singleton
/// made again with the argument that closes its cycle, and `initCompleted`'s order and failures.
extension CircularityTests {
    @Test
    func graphParentWithASingletonChildThroughItsInitializerAndAProperty() throws {
        let container = Container()
        container.register(ParentProtocol.self) { r in SharedParent(child: try r.resolve(ChildProtocol.self)) }
        container.register(ChildProtocol.self, scope: .singleton) { _ in SharedChild() }
            .initCompleted { r, child in child.parent = try r.resolve(ParentProtocol.self) }

        let parent = try container.resolve(ParentProtocol.self)

        // The singleton's property gets the graph's parent, the one the resolve returns.
        #expect(parent.child?.parent === parent)
    }

    @Test
    func graphParentWithASingletonChildThroughTwoProperties() throws {
        let container = Container()
        container.register(ParentProtocol.self) { _ in SharedParent() }
            .initCompleted { r, parent in parent.child = try r.resolve(ChildProtocol.self) }
        container.register(ChildProtocol.self, scope: .singleton) { _ in SharedChild() }
            .initCompleted { r, child in child.parent = try r.resolve(ParentProtocol.self) }

        let parent = try container.resolve(ParentProtocol.self)

        #expect(parent.child?.parent === parent)
    }

    @Test
    func singletonChildAskingForItsGraphParentInItsFactoryIsACycle() {
        let container = Container()
        container.register(ParentProtocol.self) { r in SharedParent(child: try r.resolve(ChildProtocol.self)) }
        container.register(ChildProtocol.self, scope: .singleton) { r in
            let child = SharedChild()
            child.parent = try r.resolve(ParentProtocol.self)
            return child
        }

        let error = #expect(throws: ResolutionError.self) { try container.resolve(ParentProtocol.self) }

        #expect(error?.description == "dependency cycle: ParentProtocol -> ChildProtocol -> ParentProtocol")
    }

    @Test
    func singletonParentWithAGraphChildReadThroughTry() throws {
        let container = Container()
        container.register(ParentProtocol.self, scope: .singleton) { r in SharedParent(child: try r.resolve(ChildProtocol.self)) }
        // As many call sites write it: a failure here would leave the property nil, silently.
        container.register(ChildProtocol.self) { _ in SharedChild() }
            .initCompleted { r, child in child.parent = try? r.resolve(ParentProtocol.self) }

        let parent = try container.resolve(ParentProtocol.self)

        #expect(parent.child?.parent === parent)
    }

    @Test(arguments: [Scope.singleton, .weak])
    func sharedParentWhoseChildIsMadeAnewEachTimeIsACycleNamingEveryStep(scope: Scope) {
        let container = Container()
        container.register(ParentProtocol.self, scope: scope) { r in SharedParent(child: try r.resolve(ChildProtocol.self)) }
        container.register(ChildProtocol.self, scope: .transient) { _ in SharedChild() }
            .initCompleted { r, child in child.parent = try r.resolve(ParentProtocol.self) }

        let error = #expect(throws: ResolutionError.self) { try container.resolve(ParentProtocol.self) }

        // The parent's factory ran again for the first child's property and made a second
        // child, which asked again: Swinject recurses until it stops the program.
        #expect(error?.description == """
            dependency cycle: ParentProtocol -> ChildProtocol -> ParentProtocol -> ChildProtocol -> ParentProtocol
            """)
    }

    @Test
    func singletonTakingAnArgumentIsMadeAgainWithTheArgumentThePropertyPasses() throws {
        let container = Container()
        let arguments = Recorder<String>()
        container.register(ParentProtocol.self, scope: .singleton) { (r, place: String) in
            arguments.append(place)
            return SharedParent(child: try r.resolve(ChildProtocol.self))
        }
        container.register(ChildProtocol.self) { _ in SharedChild() }
            .initCompleted { r, child in child.parent = try r.resolve(ParentProtocol.self, argument: "from the child") }

        let parent = try container.resolve(ParentProtocol.self, argument: "home")

        // As Swinject: the factory runs again with the argument of the request that closes the
        // cycle, and the singleton is the instance that run made.
        #expect(arguments.values == ["home", "from the child"])
        #expect(parent.child?.parent === parent)
        #expect(try container.resolve(ParentProtocol.self, argument: "ignored") === parent)
    }

    @Test
    func initCompletedRunsOncePerNewInstanceAfterTheFactoryInOrder() throws {
        let container = Container()
        let calls = Recorder<String>()
        container.register(Dependency.self, scope: .singleton) { _ in
            calls.append("factory")
            return Dependency()
        }
        .initCompleted { _, _ in calls.append("first") }
        .initCompleted { _, _ in calls.append("second") }

        _ = try container.resolve(Dependency.self)
        _ = try container.resolve(Dependency.self)

        #expect(calls.values == ["factory", "first", "second"])
    }

    @Test
    func aThrowingInitCompletedIsTheRegistrationsFailure() {
        let container = Container()
        container.register(Dependency.self) { _ in Dependency() }
            .initCompleted { _, _ in throw FailingFactory(description: "no property") }

        let error = #expect(throws: ResolutionError.self) { try container.resolve(Dependency.self) }

        #expect(error?.description == "factory for Dependency failed: no property")
    }
}
