import Dispatch
import Injection
import Testing

/// Swinject's `SynchronizedTests`: the container is always synchronized; Lazy, Provider,
/// property injection and child containers from many threads. Every loop is bounded.
struct SynchronizedTests {
    private static let threads = 8

    final class Node {
        var other: Other?
    }

    final class Other {
        var node: Node?
    }

    @Test
    func lazyFromManyThreadsResolvesOnce() {
        let container = Container()
        let made = Counter()
        container.register(Dependency.self, scope: .transient) { _ in
            made.increment()
            return Dependency()
        }
        guard let lazy = try? container.resolve(Lazy<Dependency>.self) else {
            Issue.record("Lazy<Dependency> did not resolve")
            return
        }
        let seen = Recorder<ObjectIdentifier>()

        DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
            for _ in 0..<100 {
                seen.append(ObjectIdentifier(lazy.instance))
            }
        }

        #expect(made.count == 1)
        #expect(Set(seen.values).count == 1)
    }

    @Test
    func providersAndPropertyCyclesAndChildrenFromManyThreads() {
        let parent = Container()
        parent.register(Dependency.self, scope: .singleton) { _ in Dependency() }
        parent.register(Node.self) { _ in Node() }
            .initCompleted { r, node in node.other = try r.resolve(Other.self) }
        parent.register(Other.self) { _ in Other() }
            .initCompleted { r, other in other.node = try r.resolve(Node.self) }
        let failures = Counter()
        let checked = Counter()

        DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
            let child = Container(parent: parent)
            child.register(PriceFetcher.self) { _ in StubFetcher(source: "child") }
            for _ in 0..<200 {
                do {
                    let provider = try child.resolve(Provider<Dependency>.self)
                    let node = try child.resolve(Node.self)
                    let fetcher = try child.resolve(Lazy<PriceFetcher>.self)
                    if provider.instance === provider.instance, node.other?.node === node, fetcher.instance.source == "child" {
                        checked.increment()
                    }
                    // Break the pair's cycle so the test does not keep 1,600 of them.
                    node.other = nil
                } catch {
                    failures.increment()
                }
            }
        }

        #expect(failures.count == 0)
        #expect(checked.count == Self.threads * 200)
    }

    @Test
    func resettingWhileResolvingIsSafe() {
        let container = Container()
        container.register(Dependency.self, scope: .singleton) { _ in Dependency() }
        container.register(PriceFetcher.self, scope: .cached) { _ in StubFetcher(source: "cached") }
        let failures = Counter()

        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for _ in 0..<200 {
                if thread == 0 {
                    container.resetObjectScope(.singleton)
                    container.resetObjectScope(.cached)
                } else if (try? container.resolve(Dependency.self)) == nil || (try? container.resolve(PriceFetcher.self))?.source != "cached" {
                    failures.increment()
                }
            }
        }

        #expect(failures.count == 0)
    }
}
