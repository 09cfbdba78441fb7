import Dispatch
import Foundation
import Injection
import Testing

/// Eight threads at once. Every loop here is bounded in count, and the waits in time.
struct ConcurrencyTests {
    private static let threads = 8

    @Test
    func singletonFactoryRunsOnceUnderSimultaneousFirstResolves() throws {
        let container = Container()
        let made = Counter()
        container.register(Dependency.self, scope: .singleton) { _ in
            made.increment()
            // Slow enough that every thread arrives while the first one is still making it.
            Thread.sleep(forTimeInterval: 0.05)
            return Dependency()
        }
        let resolved = Recorder<ObjectIdentifier>()
        let failures = Counter()

        DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
            do {
                let instance = try container.resolve(Dependency.self)
                resolved.append(ObjectIdentifier(instance))
            } catch {
                failures.increment()
            }
        }

        #expect(made.count == 1)
        #expect(failures.count == 0)
        let identities = resolved.values
        #expect(identities.count == Self.threads)
        #expect(Set(identities).count == 1)
    }

    @Test
    func slowSingletonDoesNotBlockUnrelatedResolutions() async throws {
        let container = Container()
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        container.register(Dependency.self, name: "slow", scope: .singleton) { _ in
            started.signal()
            // Bounded: gives up after 10 s rather than hang the suite.
            _ = release.wait(timeout: .now() + 10)
            return Dependency()
        }
        container.register(Dependency.self, name: "fast", scope: .singleton) { _ in Dependency() }
        container.register(PriceFetcher.self) { _ in StubFetcher(source: "fast") }

        let slow = Thread { _ = try? container.resolve(Dependency.self, name: "slow") }
        slow.start()
        #expect(started.wait(timeout: .now() + 10) == .success)

        // While the slow factory runs, other registrations resolve at once.
        let start = Date()
        _ = try container.resolve(Dependency.self, name: "fast")
        _ = try container.resolve(PriceFetcher.self)
        #expect(Date().timeIntervalSince(start) < 5)
        release.signal()
    }

    @Test
    func mixedScopesResolveFromEightThreads() throws {
        let container = Container()
        let singletonsMade = Counter()
        container.register(Dependency.self, scope: .singleton) { _ in
            singletonsMade.increment()
            return Dependency()
        }
        container.register(Service.self, scope: .transient) { r in Service(dependency: try r.resolve(Dependency.self)) }
        container.register(Pair.self) { r in Pair(first: try r.resolve(Service.self), second: try r.resolve(Service.self)) }
        container.register(PriceFetcher.self, scope: .weak) { _ in StubFetcher(source: "weak") }
        let child = Container(parent: container)
        child.register(PriceFetcher.self, name: "child") { _ in StubFetcher(source: "child") }
        let failures = Counter()
        let checked = Counter()

        DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
            for _ in 0..<500 {
                do {
                    let pair = try child.resolve(Pair.self)
                    let fetcher = try child.resolve(PriceFetcher.self, name: "child")
                    let weak = try container.resolve(PriceFetcher.self)
                    if pair.first.dependency === pair.second.dependency, fetcher.source == "child", weak.source == "weak" {
                        checked.increment()
                    }
                } catch {
                    failures.increment()
                }
            }
        }

        #expect(failures.count == 0)
        #expect(checked.count == Self.threads * 500)
        #expect(singletonsMade.count == 1)
    }

    @Test
    func nestedResolutionFromManyThreadsDoesNotDeadlock() async throws {
        let container = Container()
        container.register(Dependency.self, scope: .singleton) { _ in Dependency() }
        container.register(Service.self, scope: .singleton) { r in Service(dependency: try r.resolve(Dependency.self)) }
        container.register(Pair.self, scope: .transient) { r in
            Pair(first: try r.resolve(Service.self), second: try r.resolve(Service.self))
        }
        let finished = DispatchSemaphore(value: 0)
        let failures = Counter()

        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
                for _ in 0..<200 {
                    do {
                        let pair = try container.resolve(Pair.self)
                        if pair.first !== pair.second {
                            failures.increment()
                        }
                    } catch {
                        failures.increment()
                    }
                }
            }
            finished.signal()
        }

        // A deadlock shows up as a timeout here, not a hung test run.
        #expect(finished.wait(timeout: .now() + 60) == .success)
        #expect(failures.count == 0)
    }

    @Test
    func concurrentResolutionsNeverShareAGraph() async throws {
        let container = Container()
        container.register(Dependency.self) { _ in Dependency() }
        container.register(Service.self, scope: .transient) { r in Service(dependency: try r.resolve(Dependency.self)) }
        container.register(Pair.self, scope: .transient) { r in
            let first = try r.resolve(Service.self)
            // Give another thread's resolution the chance to interleave with this one.
            Thread.sleep(forTimeInterval: 0.001)
            return Pair(first: first, second: try r.resolve(Service.self))
        }

        let pairs = try await withThrowingTaskGroup(of: [Pair].self) { group in
            for _ in 0..<Self.threads {
                group.addTask {
                    var made: [Pair] = []
                    for _ in 0..<20 {
                        made.append(try container.resolve(Pair.self))
                    }
                    return made
                }
            }
            var all: [Pair] = []
            for try await made in group {
                all += made
            }
            return all
        }

        // Within a pair the graph is shared; between pairs, all alive at once, it never is.
        #expect(pairs.allSatisfy { $0.first.dependency === $0.second.dependency })
        #expect(Set(pairs.map { ObjectIdentifier($0.first.dependency) }).count == Self.threads * 20)
    }

    @Test
    func resolverHandedToOtherThreadsDuringItsFactoryStaysSound() throws {
        let container = Container()
        for thread in 0..<Self.threads {
            container.register(PriceFetcher.self, name: "n\(thread)", scope: .transient) { _ in
                StubFetcher(source: "n\(thread)")
            }
        }
        let failures = Counter()
        let made = Counter()
        // Misuse (a resolver is for its factory's own thread), but it must stay sound, and
        // ThreadSanitizer watches the resolution's bookkeeping being contended.
        container.register(Pair.self, scope: .transient) { r in
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                for _ in 0..<200 {
                    if (try? r.resolve(PriceFetcher.self, name: "n\(thread)"))?.source == "n\(thread)" {
                        made.increment()
                    } else {
                        failures.increment()
                    }
                }
            }
            return Pair(first: Service(dependency: Dependency()), second: Service(dependency: Dependency()))
        }

        _ = try container.resolve(Pair.self)

        #expect(failures.count == 0)
        #expect(made.count == Self.threads * 200)
    }

    @Test
    func registeringWhileResolvingIsSafe() {
        let container = Container()
        container.register(Dependency.self) { _ in Dependency() }
        let failures = Counter()

        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for index in 0..<200 {
                if thread == 0 {
                    container.register(PriceFetcher.self, name: "n\(index)") { _ in StubFetcher(source: "\(index)") }
                } else if (try? container.resolve(Dependency.self)) == nil {
                    failures.increment()
                }
            }
        }

        #expect(failures.count == 0)
        #expect(container.names(for: PriceFetcher.self).count == 200)
    }
}
