import Injection
import Testing

private final class A: Sendable { init() {} }
private final class B: Sendable { init() {} }
private final class C: Sendable { init() {} }

/// Records which of its dependencies it got; made by initializers of 0 to 9 parameters.
private final class Made: Sendable {
    let count: Int
    init() { count = 0 }
    init(a: A) { count = 1 }
    init(a: A, b: B) { count = 2 }
    init(a: A, b: B, c: C) { count = 3 }
    init(a: A, b: B, c: C, d: Dependency) { count = 4 }
    init(a: A, b: B, c: C, d: Dependency, e: A) { count = 5 }
    init(a: A, b: B, c: C, d: Dependency, e: A, f: B) { count = 6 }
    init(a: A, b: B, c: C, d: Dependency, e: A, f: B, g: C) { count = 7 }
    init(a: A, b: B, c: C, d: Dependency, e: A, f: B, g: C, h: Dependency) { count = 8 }
    init(a: A, b: B, c: C, d: Dependency, e: A, f: B, g: C, h: Dependency, i: A) { count = 9 }
}

private final class Named: Sendable {
    let name: String
    let count: Int
    let dependency: Dependency
    init(name: String, dependency: Dependency) { (self.name, self.count, self.dependency) = (name, 0, dependency) }
    init(dependency: Dependency, name: String, count: Int) { (self.name, self.count, self.dependency) = (name, count, dependency) }
}

struct AutoregistrationTests {
    private func dependencies() -> Container {
        let container = Container()
        container.register(A.self) { _ in A() }
        container.register(B.self) { _ in B() }
        container.register(C.self) { _ in C() }
        container.register(Dependency.self) { _ in Dependency() }
        return container
    }

    @Test
    func initializersOfZeroToNineDependenciesResolveEachByType() throws {
        let container = dependencies()
        container.autoregister(Made.self, name: "0", initializer: { Made() })
        container.autoregister(Made.self, name: "1", initializer: Made.init(a:))
        container.autoregister(Made.self, name: "2", initializer: Made.init(a:b:))
        container.autoregister(Made.self, name: "3", initializer: Made.init(a:b:c:))
        container.autoregister(Made.self, name: "4", initializer: Made.init(a:b:c:d:))
        container.autoregister(Made.self, name: "5", initializer: Made.init(a:b:c:d:e:))
        container.autoregister(Made.self, name: "6", initializer: Made.init(a:b:c:d:e:f:))
        container.autoregister(Made.self, name: "7", initializer: Made.init(a:b:c:d:e:f:g:))
        container.autoregister(Made.self, name: "8", initializer: Made.init(a:b:c:d:e:f:g:h:))
        container.autoregister(Made.self, name: "9", initializer: Made.init(a:b:c:d:e:f:g:h:i:))

        for count in 0...9 {
            #expect(try container.resolve(Made.self, name: "\(count)").count == count)
        }
    }

    @Test
    func dependenciesShareTheGraphAndTheScopeApplies() throws {
        let container = dependencies()
        container.autoregister(Service.self, scope: .singleton, initializer: Service.init(dependency:))
        container.autoregister(Pair.self, initializer: Pair.init(first:second:))

        let pair = try container.resolve(Pair.self)

        #expect(pair.first === pair.second)
        #expect(try container.resolve(Service.self) === pair.first)
    }

    @Test
    func argumentsFillTheParametersOfTheirType() throws {
        let container = dependencies()
        container.autoregister(Named.self, argument: String.self, initializer: Named.init(name:dependency:))
        container.autoregister(Named.self, arguments: String.self, Int.self, initializer: Named.init(dependency:name:count:))

        let one = try container.resolve(Named.self, argument: "one")
        let two = try container.resolve(Named.self, arguments: "two", 2)

        #expect((one.name, one.count) == ("one", 0))
        #expect((two.name, two.count) == ("two", 2))
    }

    @Test
    func aMissingDependencyNamesIt() {
        let container = Container()
        container.autoregister(Service.self, initializer: Service.init(dependency:))

        let error = #expect(throws: ResolutionError.self) { try container.resolve(Service.self) }

        #expect(error?.description == "no Dependency registered; register one with container.register(Dependency.self) { … }")
    }
}
