import Injection
import Testing

/// Swinject's `ContainerTests.Circularity`: a cycle closed through a property set in
/// `initCompleted` resolves, in the same graph; a cycle of initializers alone still throws.
struct CircularityTests {
    final class Parent {
        var child: Child?
        init(child: Child? = nil) { self.child = child }
    }

    // Strong both ways: the tests check the links, and a leaked pair per test is harmless.
    final class Child {
        var parent: Parent?
    }

    final class NodeA { var b: NodeB?; init(b: NodeB? = nil) { self.b = b } }
    final class NodeB { var c: NodeC?; init(c: NodeC? = nil) { self.c = c } }
    final class NodeC { var a: NodeA?; var d: NodeD?; init(d: NodeD? = nil) { self.d = d } }
    final class NodeD { var a: NodeA?; var b: NodeB?; var c: NodeC? }

    // Swinject's own protocols for the scenario in a scope that shares instances, which
    // takes `Sendable` services. The links are written once, in `initCompleted`, before the
    // container hands the instance to anyone.
    protocol ParentProtocol: AnyObject, Sendable {
        var child: (any ChildProtocol)? { get set }
    }

    protocol ChildProtocol: AnyObject, Sendable {
        var parent: (any ParentProtocol)? { get set }
    }

    final class SharedParent: ParentProtocol, @unchecked Sendable {
        var child: (any ChildProtocol)?
        init(child: (any ChildProtocol)? = nil) { self.child = child }
    }

    final class SharedChild: ChildProtocol, @unchecked Sendable {
        var parent: (any ParentProtocol)?
    }

    /// D, made with no dependencies, links back to B and C through properties.
    private func registerNodeDLinkingBack(in container: Container) {
        container.register(NodeD.self) { _ in NodeD() }
            .initCompleted { r, d in
                d.b = try r.resolve(NodeB.self)
                d.c = try r.resolve(NodeC.self)
            }
    }

    /// Swinject's checks: every link found from A leads back to the graph's one instance.
    private func expectFourNodesLinked(_ a: NodeA) throws {
        let b = try #require(a.b)
        let c = try #require(b.c)
        let d = try #require(c.d)

        #expect(c.a === a)
        #expect(d.b === b)
        #expect(d.c === c)
    }

    @Test
    func parentAndChildThroughTwoProperties() throws {
        let container = Container()
        container.register(Parent.self) { _ in Parent() }
            .initCompleted { r, parent in parent.child = try r.resolve(Child.self) }
        container.register(Child.self) { _ in Child() }
            .initCompleted { r, child in child.parent = try r.resolve(Parent.self) }

        let parent = try container.resolve(Parent.self)

        #expect(parent.child?.parent === parent)
    }

    @Test
    func parentThroughItsInitializerAndChildThroughAProperty() throws {
        let container = Container()
        container.register(Parent.self) { r in Parent(child: try r.resolve(Child.self)) }
        container.register(Child.self) { _ in Child() }
            .initCompleted { r, child in child.parent = try r.resolve(Parent.self) }

        let parent = try container.resolve(Parent.self)
        // Resolved from the child's side too: the parent's initializer gets the child in progress.
        let child = try container.resolve(Child.self)

        #expect(parent.child?.parent === parent)
        #expect(child.parent?.child === child)
    }

    @Test
    func fourNodesWithInitializersAndOnePropertyLink() throws {
        let container = Container()
        container.register(NodeA.self) { r in NodeA(b: try r.resolve(NodeB.self)) }
        container.register(NodeB.self) { r in NodeB(c: try r.resolve(NodeC.self)) }
        container.register(NodeC.self) { r in NodeC(d: try r.resolve(NodeD.self)) }
            .initCompleted { r, c in c.a = try r.resolve(NodeA.self) }
        registerNodeDLinkingBack(in: container)

        // D's property asks for B while B's initializer still waits for C: B's factory runs
        // again (Swinject's way), and the first instance made is the graph's.
        try expectFourNodesLinked(try container.resolve(NodeA.self))
    }

    @Test
    func fourNodesAllThroughProperties() throws {
        let container = Container()
        container.register(NodeA.self) { _ in NodeA() }
            .initCompleted { r, a in a.b = try r.resolve(NodeB.self) }
        container.register(NodeB.self) { _ in NodeB() }
            .initCompleted { r, b in b.c = try r.resolve(NodeC.self) }
        container.register(NodeC.self) { _ in NodeC() }
            .initCompleted { r, c in
                c.a = try r.resolve(NodeA.self)
                c.d = try r.resolve(NodeD.self)
            }
        registerNodeDLinkingBack(in: container)

        try expectFourNodesLinked(try container.resolve(NodeA.self))
    }

    @Test
    func aToBToCToDToAWithOnePropertyLink() throws {
        let container = Container()
        container.register(NodeA.self) { r in NodeA(b: try r.resolve(NodeB.self)) }
        container.register(NodeB.self) { r in NodeB(c: try r.resolve(NodeC.self)) }
        container.register(NodeC.self) { r in NodeC(d: try r.resolve(NodeD.self)) }
        // D -> A is the one property link: A is in progress when D asks, so D is completed
        // after A exists. Resolved from D, the chain of initializers runs A, B, C first.
        container.register(NodeD.self) { _ in NodeD() }
            .initCompleted { r, d in d.c = try r.resolve(NodeA.self).b?.c }

        let d = try container.resolve(NodeD.self)
        let c = try #require(d.c)

        #expect(c.d === d)
    }

    @Test
    func resolvedFromATheCycleClosesThroughDsPropertyToA() throws {
        let container = Container()
        container.register(NodeA.self) { r in NodeA(b: try r.resolve(NodeB.self)) }
        container.register(NodeB.self) { r in NodeB(c: try r.resolve(NodeC.self)) }
        container.register(NodeC.self) { r in NodeC(d: try r.resolve(NodeD.self)) }
        container.register(NodeD.self) { _ in NodeD() }
            .initCompleted { r, d in d.a = try r.resolve(NodeA.self) }

        let a = try container.resolve(NodeA.self)
        let d = try #require(a.b?.c?.d)

        // A, B and C were made again to close it; the graph keeps one of each, linked.
        #expect(d.a === a)
    }

    @Test
    func aCycleWithNoPropertyLinkStillThrowsThePath() {
        let container = Container()
        container.register(NodeA.self) { r in NodeA(b: try r.resolve(NodeB.self)) }
        container.register(NodeB.self) { r in NodeB(c: try r.resolve(NodeC.self)) }
        container.register(NodeC.self) { r in
            let c = NodeC(d: nil)
            c.a = try r.resolve(NodeA.self)
            return c
        }

        let error = #expect(throws: ResolutionError.self) { try container.resolve(NodeA.self) }

        #expect(error?.description == "dependency cycle: NodeA -> NodeB -> NodeC -> NodeA")
    }

    @Test(arguments: [Scope.singleton, .weak])
    func sharedParentThroughItsInitializerAndChildThroughAProperty(scope: Scope) throws {
        let container = Container()
        container.register(ParentProtocol.self, scope: scope) { r in SharedParent(child: try r.resolve(ChildProtocol.self)) }
        container.register(ChildProtocol.self, scope: scope) { _ in SharedChild() }
            .initCompleted { r, child in child.parent = try r.resolve(ParentProtocol.self) }

        let parent = try container.resolve(ParentProtocol.self)

        // As in Swinject: the parent's factory ran again for the child's property, and the
        // scope keeps the instance the child got.
        #expect(parent.child?.parent === parent)
        #expect(try container.resolve(ParentProtocol.self) === parent)
        #expect(try container.resolve(ChildProtocol.self) === parent.child)
    }

    @Test(arguments: [Scope.singleton, .weak])
    func sharedParentAndChildThroughTwoProperties(scope: Scope) throws {
        let container = Container()
        container.register(ParentProtocol.self, scope: scope) { _ in SharedParent() }
            .initCompleted { r, parent in parent.child = try r.resolve(ChildProtocol.self) }
        container.register(ChildProtocol.self, scope: scope) { _ in SharedChild() }
            .initCompleted { r, child in child.parent = try r.resolve(ParentProtocol.self) }

        let parent = try container.resolve(ParentProtocol.self)

        #expect(parent.child?.parent === parent)
        #expect(try container.resolve(ChildProtocol.self) === parent.child)
    }
}
