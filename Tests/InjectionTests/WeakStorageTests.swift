import Injection
import Testing

/// Swinject's `WeakStorageTests`, through the container's `.weak` scope.
struct WeakStorageTests {
    @Test
    func keptWhileSomethingHoldsItAndNotAfter() throws {
        let container = Container()
        container.register(Dependency.self, scope: .weak) { _ in Dependency() }
        weak var observed: Dependency?

        do {
            let held = try container.resolve(Dependency.self)
            observed = held
            #expect(try container.resolve(Dependency.self) === held)
        }

        // The container holds it only weakly: nothing else does, so it is gone.
        #expect(observed == nil)
    }

    @Test
    func aWeakReferenceElsewhereDoesNotKeepIt() throws {
        let container = Container()
        let made = Counter()
        container.register(Dependency.self, scope: .weak) { _ in
            made.increment()
            return Dependency()
        }
        weak let weakly = try container.resolve(Dependency.self)

        _ = try container.resolve(Dependency.self)

        #expect(weakly == nil)
        #expect(made.count == 2)
    }
}
