import Injection
import Testing

/// Swinject's `LazyTests`: a `Lazy<T>` resolves once, on first access, within its graph.
struct LazyTests {
    /// Depends on a customer now and another later; graph-scope instances are shared.
    final class Employer {
        let customer: Customer
        let lazyCustomer: Lazy<Customer>
        let employee: Employee

        init(customer: Customer, lazyCustomer: Lazy<Customer>, employee: Employee) {
            (self.customer, self.lazyCustomer, self.employee) = (customer, lazyCustomer, employee)
        }
    }

    final class Employee {
        let lazyCustomer: Lazy<Customer>
        let lazyEmployer: Lazy<Employer>

        init(lazyCustomer: Lazy<Customer>, lazyEmployer: Lazy<Employer>) {
            (self.lazyCustomer, self.lazyEmployer) = (lazyCustomer, lazyEmployer)
        }
    }

    final class Customer {}

    private func employment(customerScope: UnsharedScope) -> Container {
        let container = Container()
        container.register(Customer.self, scope: customerScope) { _ in Customer() }
        container.register(Employee.self) { r in
            Employee(lazyCustomer: try r.resolve(Lazy<Customer>.self), lazyEmployer: try r.resolve(Lazy<Employer>.self))
        }
        container.register(Employer.self) { r in
            Employer(
                customer: try r.resolve(Customer.self),
                lazyCustomer: try r.resolve(Lazy<Customer>.self),
                employee: try r.resolve(Employee.self))
        }
        return container
    }

    @Test
    func doesNotResolveUntilFirstAccessThenOnlyOnce() throws {
        let container = Container()
        let made = Counter()
        container.register(Dependency.self, scope: .transient) { _ in
            made.increment()
            return Dependency()
        }

        let lazy = try container.resolve(Lazy<Dependency>.self)
        #expect(made.count == 0)

        let first = lazy.instance
        #expect(lazy.instance === first)
        #expect(try lazy.resolve() === first)
        #expect(made.count == 1)
    }

    @Test
    func resolvesWithinTheGraphItWasMadeIn() throws {
        let container = employment(customerScope: .graph)

        let employer = try container.resolve(Employer.self)

        #expect(employer.lazyCustomer.instance === employer.customer)
        #expect(employer.employee.lazyCustomer.instance === employer.customer)
        // The graph's root, resolved later through a Lazy made in its graph, is the root.
        #expect(employer.employee.lazyEmployer.instance === employer)
    }

    /// Made by a provider: its lazy customer belongs to the graph that made it.
    final class Visit {
        let customer: Customer
        let lazyCustomer: Lazy<Customer>

        init(customer: Customer, lazyCustomer: Lazy<Customer>) {
            (self.customer, self.lazyCustomer) = (customer, lazyCustomer)
        }
    }

    final class Reception {
        let visits: Provider<Visit>
        init(visits: Provider<Visit>) { self.visits = visits }
    }

    @Test
    func aLazyMadeThroughAProviderBelongsToThatAccesssGraph() throws {
        let container = Container()
        container.register(Customer.self) { _ in Customer() }
        container.register(Visit.self) { r in
            Visit(customer: try r.resolve(Customer.self), lazyCustomer: try r.resolve(Lazy<Customer>.self))
        }
        container.register(Reception.self) { r in Reception(visits: try r.resolve(Provider<Visit>.self)) }
        let reception = try container.resolve(Reception.self)

        let (first, second) = (reception.visits.instance, reception.visits.instance)

        // Swinject's `Lazy` restores the graph it was made in, and so does this one; each
        // provider access is a graph of its own.
        #expect(first.lazyCustomer.instance === first.customer)
        #expect(second.lazyCustomer.instance === second.customer)
        #expect(first.customer !== second.customer)
    }

    /// Holds only a lazy customer; the graph's customer, made beside it, is held by no one.
    final class Receipt {
        let lazyCustomer: Lazy<Customer>
        init(lazyCustomer: Lazy<Customer>) { self.lazyCustomer = lazyCustomer }
    }

    @Test
    func aLazyKeepsItsGraphsInstanceThatNothingElseHolds() throws {
        let container = Container()
        let made = Counter()
        container.register(Customer.self) { _ in
            made.increment()
            return Customer()
        }
        container.register(Receipt.self) { r in
            _ = try r.resolve(Customer.self)
            return Receipt(lazyCustomer: try r.resolve(Lazy<Customer>.self))
        }
        let receipt = try container.resolve(Receipt.self)

        _ = receipt.lazyCustomer.instance

        // A difference from Swinject, stated in docs/container.md: Swinject holds a graph's
        // instances weakly and would make a second customer here; the Lazy keeps its graph.
        #expect(made.count == 1)
    }

    @Test
    func transientMakesAnotherForEachLazy() throws {
        let container = employment(customerScope: .transient)

        let employer = try container.resolve(Employer.self)

        #expect(employer.lazyCustomer.instance !== employer.employee.lazyCustomer.instance)
        #expect(employer.lazyCustomer.instance !== employer.customer)
    }

    @Test
    func singletonIsTheSameForEveryLazy() throws {
        let container = Container()
        container.register(Dependency.self, scope: .singleton) { _ in Dependency() }

        let first = try container.resolve(Lazy<Dependency>.self)
        let second = try container.resolve(Lazy<Dependency>.self)

        #expect(first.instance === second.instance)
    }

    @Test
    func nameArgumentAndForwardedTypesResolve() throws {
        let container = Container()
        container.register(StubFetcher.self, name: "file") { _ in StubFetcher(source: "file") }
            .implements(PriceFetcher.self, name: "file")
        container.register(PriceFetcher.self) { (_, source: String) in StubFetcher(source: source) }

        #expect(try container.resolve(Lazy<PriceFetcher>.self, name: "file").instance.source == "file")
        #expect(try container.resolve(Lazy<PriceFetcher>.self, argument: "Hachi").instance.source == "Hachi")
    }

    @Test
    func missingBaseTypeOrNameIsAnErrorNamingTheBaseType() throws {
        let container = Container()
        container.register(PriceFetcher.self, name: "file") { _ in StubFetcher(source: "file") }

        let wrongName = #expect(throws: ResolutionError.self) { try container.resolve(Lazy<PriceFetcher>.self, name: "coinbase") }
        let missing = #expect(throws: ResolutionError.self) { try container.resolve(Lazy<Dependency>.self) }

        #expect(wrongName?.description == "no PriceFetcher named 'coinbase'; registered: file")
        #expect(missing?.code == .missingRegistration)
        #expect(try container.resolve(Lazy<Dependency>?.self) == nil)
    }

    @Test
    func aFailureIsThrownByResolveAndTriedAgain() throws {
        let container = Container()
        let attempts = Counter()
        container.register(Dependency.self) { _ in
            if attempts.increment() == 1 {
                throw FailingFactory(description: "not yet")
            }
            return Dependency()
        }
        let lazy = try container.resolve(Lazy<Dependency>.self)

        let error = #expect(throws: ResolutionError.self) { try lazy.resolve() }
        let made = try lazy.resolve()

        #expect(error?.description == "factory for Dependency failed: not yet")
        #expect(lazy.instance === made)
    }

    @Test
    func instanceStopsWithTheFullErrorText() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = Container()
            container.register(PriceFetcher.self, name: "file") { _ in throw FailingFactory(description: "gone") }
            _ = try? container.resolve(Lazy<PriceFetcher>.self, name: "file").instance
        }
    }
}
