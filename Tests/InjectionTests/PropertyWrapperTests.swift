import Injection
import Testing

final class Unregistered: Sendable {}

extension RootContainerSuite {
    /// Resolver's property wrappers, resolving from `Container.root`.
    struct PropertyWrapperTests {
        final class ViewModel {
            @Injected var fetcher: PriceFetcher
            @Injected(name: "file") var file: PriceFetcher
            @LazyInjected var dependency: Dependency
            @WeakLazyInjected var weakDependency: Dependency?
            @OptionalInjected var missing: Unregistered?
            @OptionalInjected(name: "file") var present: PriceFetcher?
        }

        private func mocks(made: Counter) -> Container {
            let mock = Container(parent: .main)
            mock.register(PriceFetcher.self) { _ in StubFetcher(source: "mock") }
            mock.register(PriceFetcher.self, name: "file") { _ in StubFetcher(source: "file") }
            mock.register(Dependency.self, scope: .weak) { _ in
                made.increment()
                return Dependency()
            }
            return mock
        }

        @Test
        func injectedResolvesAtInitFromTheRoot() {
            let model = withRoot(mocks(made: Counter())) { ViewModel() }

            // Resolved at init: putting the root back changes nothing.
            #expect(model.fetcher.source == "mock")
            #expect(model.file.source == "file")
            #expect(model.missing == nil)
            #expect(model.present?.source == "file")
        }

        @Test
        func lazyInjectedResolvesOnTheFirstReadOnly() {
            let made = Counter()
            withRoot(mocks(made: made)) {
                let model = ViewModel()
                #expect(made.count == 0)
                #expect(model.$dependency.isEmpty)

                let first = model.dependency

                #expect(model.dependency === first)
                #expect(made.count == 1)
                #expect(!model.$dependency.isEmpty)
            }
        }

        @Test
        func weakLazyInjectedLetsGo() {
            let made = Counter()
            withRoot(mocks(made: made)) {
                let model = ViewModel()
                var held = model.weakDependency
                #expect(held != nil)
                #expect(model.weakDependency === held)

                held = nil

                #expect(model.weakDependency == nil)
                #expect(made.count == 1)
            }
        }

        @Test
        func theMainContainerIsTheRootAgainAfterwards() {
            withRoot(mocks(made: Counter())) {
                #expect(Container.root !== Container.main)
            }

            #expect(Container.root === Container.main)
        }

        @Test
        func injectedStopsWithTheFullErrorText() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                final class Holder {
                    @Injected(name: "nowhere") var fetcher: PriceFetcher
                }
                _ = Holder()
            }

            #expect(standardError(result, contains: "no PriceFetcher named 'nowhere'; registered: coinbase/BTC"))
        }

        @Test
        func optionalInjectedStopsOnAnythingButAMissingRegistration() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                Container.main.register(Service.self, name: "broken") { r in Service(dependency: try r.resolve(Dependency.self)) }
                final class Holder {
                    @OptionalInjected(name: "broken") var service: Service?
                }
                _ = Holder()
            }

            #expect(standardError(result, contains: "no Dependency registered"))
        }
    }

    /// Resolver's `ResolverRegistering`: the hook runs once, before the first use of the root.
    struct RegistrationHookTests {
        @Test
        func runsOnceBeforeTheFirstUseAndItsRegistrationsAreThere() throws {
            let clock = try Container.main.resolve(AppClock.self)

            #expect(try Container.root.resolve(AppClock.self) === clock)
            #expect(registrationHookRuns.count == 1)
        }
    }
}
