import Injection
import Testing

/// Records what it is told, as Swinject's `BehaviorFake` does.
final class RecordingBehavior: Behavior {
    let calls = Recorder<String>()

    func container<Type, Service>(
        _ container: Container, didRegisterType type: Type.Type,
        toService registration: Registration<Service>, withName name: String?
    ) {
        calls.append("\(Type.self) as \(Service.self) named \(name ?? "-") in \(registration.scope)")
    }
}

/// Swinject's `ContainerTests.Behavior` and `CustomStringConvertible`.
struct BehaviorTests {
    @Test
    func isToldOfEachRegistrationAndForwardedType() {
        let behavior = RecordingBehavior()
        let container = Container(behaviors: [behavior])

        container.register(StubFetcher.self, name: "stub", scope: .singleton) { _ in StubFetcher(source: "stub") }
            .implements(PriceFetcher.self, name: "forwarded")
        container.register(Dependency.self) { _ in Dependency() }

        #expect(behavior.calls.values == [
            "StubFetcher as StubFetcher named stub in singleton",
            "PriceFetcher as StubFetcher named forwarded in singleton",
            "Dependency as Dependency named - in graph",
        ])
    }

    @Test
    func addedBehaviorIsToldOfLaterRegistrationsOnly() {
        let behavior = RecordingBehavior()
        let container = Container()
        container.register(Dependency.self) { _ in Dependency() }

        container.addBehavior(behavior)
        container.register(Dependency.self, name: "later") { _ in Dependency() }

        #expect(behavior.calls.values == ["Dependency as Dependency named later in graph"])
    }

    @Test
    func descriptionListsTheRegistrations() {
        let container = Container()
        container.register(PriceFetcher.self, name: "file", scope: .singleton) { _ in StubFetcher(source: "file") }
        container.register(PriceFetcher.self) { (_, source: String) in StubFetcher(source: source) }
        container.register(Dependency.self) { _ in Dependency() }
            .initCompleted { _, _ in }
            .implements(Plain.self)

        #expect(container.description == """
            [
                { Service: Dependency, Factory: (Resolver) -> Dependency, Scope: graph, InitCompleted: Specified },
                { Service: Plain, Factory: (Resolver) -> Plain, Scope: transient, Forwarded },
                { Service: PriceFetcher, Factory: (Resolver, String) -> PriceFetcher, Scope: graph },
                { Service: PriceFetcher, Name: "file", Factory: (Resolver) -> PriceFetcher, Scope: singleton }
            ]
            """)
    }
}
