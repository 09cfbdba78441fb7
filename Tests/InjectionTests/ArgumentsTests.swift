import Injection
import Testing

/// Swinject's `ContainerTests.Arguments`: a factory takes 1 to 9 arguments given at resolve
/// time; and registrations of one type and name are told apart by their arguments' types.
struct ArgumentsTests {
    @Test
    func factoriesTakeOneToNineArguments() throws {
        let container = Container()
        container.register(String.self) { (_, a: Int) in "\(a)" }
        container.register(String.self) { (_, a: Int, b: Int) in "\(a)\(b)" }
        container.register(String.self) { (_, a: Int, b: Int, c: Int) in "\(a)\(b)\(c)" }
        container.register(String.self) { (_, a: Int, b: Int, c: Int, d: Int) in "\(a)\(b)\(c)\(d)" }
        container.register(String.self) { (_, a: Int, b: Int, c: Int, d: Int, e: Int) in "\(a)\(b)\(c)\(d)\(e)" }
        container.register(String.self) { (_, a: Int, b: Int, c: Int, d: Int, e: Int, f: Int) in "\(a)\(b)\(c)\(d)\(e)\(f)" }
        container.register(String.self) { (_, a: Int, b: Int, c: Int, d: Int, e: Int, f: Int, g: Int) in
            "\(a)\(b)\(c)\(d)\(e)\(f)\(g)"
        }
        container.register(String.self) { (_, a: Int, b: Int, c: Int, d: Int, e: Int, f: Int, g: Int, h: Int) in
            "\(a)\(b)\(c)\(d)\(e)\(f)\(g)\(h)"
        }
        container.register(String.self) { (_, a: Int, b: Int, c: Int, d: Int, e: Int, f: Int, g: Int, h: Int, i: Int) in
            "\(a)\(b)\(c)\(d)\(e)\(f)\(g)\(h)\(i)"
        }

        #expect(try container.resolve(String.self, argument: 1) == "1")
        #expect(try container.resolve(String.self, arguments: 1, 2) == "12")
        #expect(try container.resolve(String.self, arguments: 1, 2, 3) == "123")
        #expect(try container.resolve(String.self, arguments: 1, 2, 3, 4) == "1234")
        #expect(try container.resolve(String.self, arguments: 1, 2, 3, 4, 5) == "12345")
        #expect(try container.resolve(String.self, arguments: 1, 2, 3, 4, 5, 6) == "123456")
        #expect(try container.resolve(String.self, arguments: 1, 2, 3, 4, 5, 6, 7) == "1234567")
        #expect(try container.resolve(String.self, arguments: 1, 2, 3, 4, 5, 6, 7, 8) == "12345678")
        #expect(try container.resolve(String.self, arguments: 1, 2, 3, 4, 5, 6, 7, 8, 9) == "123456789")
    }

    @Test
    func eachResolvePicksTheRegistrationItsArgumentsMatch() throws {
        let container = Container()
        container.register(PriceFetcher.self, name: "horse") { _ in StubFetcher(source: "none") }
        container.register(PriceFetcher.self, name: "horse") { (_, name: String) in StubFetcher(source: "name \(name)") }
        container.register(PriceFetcher.self, name: "horse") { (_, count: Int) in StubFetcher(source: "count \(count)") }
        container.register(PriceFetcher.self, name: "horse") { (_, name: String, running: Bool) in
            StubFetcher(source: "\(name) running \(running)")
        }
        container.register(PriceFetcher.self, name: "horse") { (_, pair: (String, Bool)) in
            StubFetcher(source: "one tuple \(pair.0)")
        }

        #expect(try container.resolve(PriceFetcher.self, name: "horse").source == "none")
        #expect(try container.resolve(PriceFetcher.self, name: "horse", argument: "Spirit").source == "name Spirit")
        #expect(try container.resolve(PriceFetcher.self, name: "horse", argument: 3).source == "count 3")
        #expect(try container.resolve(PriceFetcher.self, name: "horse", arguments: "Lucky", true).source == "Lucky running true")
        // One argument that is a tuple is not two arguments.
        #expect(try container.resolve(PriceFetcher.self, name: "horse", argument: ("Tup", false)).source == "one tuple Tup")
        #expect(container.names(for: PriceFetcher.self) == ["horse"])
    }

    @Test
    func argumentsOfOtherTypesNameWhatIsRegistered() {
        let container = Container()
        container.register(PriceFetcher.self) { (_, name: String) in StubFetcher(source: name) }
        container.register(PriceFetcher.self) { (_, count: Int) in StubFetcher(source: "\(count)") }

        let wrongType = #expect(throws: ResolutionError.self) { try container.resolve(PriceFetcher.self, argument: 1.5) }
        let none = #expect(throws: ResolutionError.self) { try container.resolve(PriceFetcher.self) }
        let two = #expect(throws: ResolutionError.self) { try container.resolve(PriceFetcher.self, arguments: "a", 1) }

        #expect(wrongType?.description == "PriceFetcher takes an argument of type Int or String, but was resolved with Double")
        #expect(none?.description == "PriceFetcher takes an argument of type Int or String; resolve it with resolve(_:name:argument:)")
        #expect(two?.description == "PriceFetcher takes an argument of type Int or String, but was resolved with (String, Int)")
    }

    @Test
    func aLaterRegistrationReplacesOnlyTheOneWithTheSameArguments() throws {
        let container = Container()
        container.register(PriceFetcher.self) { (_, name: String) in StubFetcher(source: "first \(name)") }
        container.register(PriceFetcher.self) { _ in StubFetcher(source: "none") }
        container.register(PriceFetcher.self) { (_, name: String) in StubFetcher(source: "second \(name)") }

        #expect(try container.resolve(PriceFetcher.self, argument: "x").source == "second x")
        #expect(try container.resolve(PriceFetcher.self).source == "none")
        #expect(container.hasRegistration(PriceFetcher.self, argument: String.self))
        #expect(!container.hasRegistration(PriceFetcher.self, argument: Int.self))
    }

    @Test
    func childFindsItsParentsRegistrationWithTheMatchingArgument() throws {
        let parent = Container()
        parent.register(PriceFetcher.self) { (_, name: String) in StubFetcher(source: "parent \(name)") }
        let child = Container(parent: parent)
        child.register(PriceFetcher.self) { _ in StubFetcher(source: "child") }

        #expect(try child.resolve(PriceFetcher.self, argument: "x").source == "parent x")
        #expect(try child.resolve(PriceFetcher.self).source == "child")
    }
}
