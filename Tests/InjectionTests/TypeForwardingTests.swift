import Injection
import Testing

private protocol Animal: Sendable { var name: String { get } }
private protocol Pet: Sendable {}
private protocol Unrelated {}

private final class Dog: Animal, Pet {
    let name: String
    init(name: String = "Hachi") { self.name = name }
}

/// Swinject's `ContainerTests.TypeForwarding`.
struct TypeForwardingTests {
    @Test
    func forwardedTypesResolveWithNamesArgumentsAndOptionals() throws {
        let container = Container()
        container.register(Dog.self, name: "dog") { _ in Dog() }
            .implements(Animal.self, name: "animal")
            .forType(Pet.self)
        container.register(Dog.self) { (_, name: String) in Dog(name: name) }
            .implements(Animal.self)

        #expect(try container.resolve(Animal.self, name: "animal").name == "Hachi")
        #expect(try container.resolve(Pet.self) is Dog)
        #expect(try container.resolve(Animal.self, argument: "Lucky").name == "Lucky")
        #expect(try container.resolve(Animal?.self, name: "animal")?.name == "Hachi")
        #expect(try container.resolve(Animal?.self, name: "dog") == nil)
        #expect(throws: ResolutionError.self) { try container.resolve(Animal.self, name: "wrong") }
    }

    @Test
    func incompatibleForwardingThrowsTheTypeMismatch() {
        let container = Container()
        container.register(Dog.self) { (_, name: String) in Dog(name: name) }
            .implements(Unrelated.self)

        let error = #expect(throws: ResolutionError.self) { try container.resolve(Unrelated.self, argument: "Rex") }

        #expect(error?.code == .typeMismatch)
    }

    @Test
    func forwardedTypeSharesTheScopeSetAfterIt() throws {
        let container = Container()
        container.register { Dog() }
            .implements(Animal.self)
            .implements(Pet.self)
            .scope(.singleton)

        let dog = try container.resolve(Dog.self)

        #expect(isSameInstance(try container.resolve(Animal.self), dog))
        #expect(isSameInstance(try container.resolve(Pet.self), dog))
    }
}
