import Injection
import Testing

private protocol Clock: Sendable {
    var now: Int { get }
}

private protocol Ticker: Sendable {
    func tick() -> Int
}

private final class FixedClock: Clock, Ticker {
    let now = 42

    func tick() -> Int {
        now + 1
    }
}

private protocol Unrelated {}

private final class Both: Sendable {
    let clock: any Clock
    let ticker: any Ticker

    init(clock: any Clock, ticker: any Ticker) {
        self.clock = clock
        self.ticker = ticker
    }
}

struct RegistrationTests {
    @Test
    func implementsServesOtherTypesFromTheSameFactory() throws {
        let container = Container()
        container.register(FixedClock.self) { _ in FixedClock() }
            .implements(Clock.self)
            .implements(Ticker.self, name: "ticker")

        #expect(try container.resolve(Clock.self).now == 42)
        #expect(try container.resolve(Ticker.self, name: "ticker").tick() == 43)
        #expect(container.names(for: Ticker.self) == ["ticker"])
    }

    @Test
    func implementedTypesShareTheSingleton() throws {
        let container = Container()
        let made = Counter()
        container.register(FixedClock.self, scope: .singleton) { _ in
            made.increment()
            return FixedClock()
        }
        .implements(Clock.self)
        .implements(Ticker.self)

        let clock = try container.resolve(Clock.self)
        let ticker = try container.resolve(Ticker.self)
        let concrete = try container.resolve(FixedClock.self)

        #expect(isSameInstance(clock, concrete))
        #expect(isSameInstance(ticker, concrete))
        #expect(made.count == 1)
    }

    @Test
    func implementedTypesShareTheGraphInstance() throws {
        let container = Container()
        container.register(FixedClock.self) { _ in FixedClock() }
            .implements(Clock.self)
            .implements(Ticker.self)
        container.register(Both.self) { r in
            Both(clock: try r.resolve(Clock.self), ticker: try r.resolve(Ticker.self))
        }

        let both = try container.resolve(Both.self)
        let again = try container.resolve(Both.self)

        #expect(isSameInstance(both.clock, both.ticker))
        #expect(!isSameInstance(both.clock, again.clock))
    }

    @Test
    func implementsWithATypeTheInstanceIsNotThrowsInsteadOfCrashing() throws {
        let container = Container()
        container.register(FixedClock.self) { _ in FixedClock() }
            .implements(Unrelated.self)

        let error = #expect(throws: ResolutionError.self) { try container.resolve(Unrelated.self) }

        #expect(error == ResolutionError(
            code: .typeMismatch,
            description: """
                FixedClock made an instance of FixedClock, which is not Unrelated; \
                remove .implements(Unrelated.self) or make FixedClock conform
                """))
    }

    @Test
    func implementsCarriesTheArgument() throws {
        let container = Container()
        container.register(StubFetcher.self) { (_, source: String) in StubFetcher(source: source) }
            .implements(PriceFetcher.self)

        #expect(try container.resolve(PriceFetcher.self, argument: "forwarded").source == "forwarded")
    }
}
