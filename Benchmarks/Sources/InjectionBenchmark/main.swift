import Foundation
import Injection

// Times the container against the bare baseline; see BENCHMARKS.md for how to read it.
// `--quick` runs fewer iterations, for a smoke test.

let quick = CommandLine.arguments.contains("--quick")
/// `--profile CASE [COUNT]` loops on one case for a profiler: baseline, transient, singleton,
/// named, chain, lazy, and the baselines baseline-chain, baseline-lazy.
let profileIndex = CommandLine.arguments.firstIndex(of: "--profile")
let profiled = profileIndex.map { CommandLine.arguments[$0 + 1] }
let profileCount = profileIndex.flatMap { CommandLine.arguments.count > $0 + 2 ? Int(CommandLine.arguments[$0 + 2]) : nil } ?? 5_000_000
let rounds = quick ? 3 : 11
let iterations = quick ? 100_000 : 1_000_000
let memoryResolutions = quick ? 1_000_000 : 10_000_000

func fail(_ error: any Error) -> Never {
    fatalError("benchmark setup is wrong: \(error)")
}

func resolveOrFail<Service>(_ resolve: () throws -> Service) -> Service {
    do { return try resolve() } catch { fail(error) }
}

let names = (0..<50).map { "provider/\($0)" }
let wantedName = names[37]

// The baseline, with the same services.
let bare = BareContainer()
bare.register(Leaf.self) { _ in Leaf() }
bare.register(Level3.self) { c in Level3(leaf: c.resolve(Leaf.self)) }
bare.register(Level2.self) { c in Level2(next: c.resolve(Level3.self)) }
bare.register(Level1.self) { c in Level1(next: c.resolve(Level2.self)) }
bare.register(PriceSource.self, argument: String.self) { _, symbol in NamedSource(symbol: symbol) }
bare.register(PriceSource.self, argument: Int.self) { _, id in NamedSource(symbol: "\(id)") }

let container = Container()
container.register(Leaf.self, scope: .transient) { _ in Leaf() }
container.register(Leaf.self, name: "singleton", scope: .singleton) { _ in Leaf() }
for name in names {
    container.register(PriceSource.self, name: name, scope: .singleton) { _ in NamedSource(symbol: name) }
}
container.register(PriceSource.self) { (_, symbol: String) in NamedSource(symbol: symbol) }
container.register(PriceSource.self) { (_, id: Int) in NamedSource(symbol: "\(id)") }
let chain = Container()
chain.register(Leaf.self) { _ in Leaf() }
chain.register(Level3.self) { r in Level3(leaf: try r.resolve(Leaf.self)) }
chain.register(Level2.self) { r in Level2(next: try r.resolve(Level3.self)) }
chain.register(Level1.self) { r in Level1(next: try r.resolve(Level2.self)) }

// The property wrappers resolve from the root: the container above.
Container.root = container

/// What `@Injected` costs: one resolve from the root when its owner is made.
struct InjectedOwner {
    @Injected var leaf: Leaf
}

let provider = resolveOrFail { try container.resolve(Provider<Leaf>.self) }
let madeLazy = resolveOrFail { try container.resolve(Lazy<Leaf>.self) }
let bareMadeLazy = bare.resolveLazy(Leaf.self)

if let profiled {
    for _ in 0..<profileCount {
        do {
            switch profiled {
            case "transient": blackHole(try container.resolve(Leaf.self))
            case "singleton": blackHole(try container.resolve(Leaf.self, name: "singleton"))
            case "named": blackHole(try container.resolve(PriceSource.self, name: wantedName))
            case "chain": blackHole(try chain.resolve(Level1.self))
            case "lazy": blackHole(try container.resolve(Lazy<Leaf>.self).instance)
            case "baseline-lazy": blackHole(bare.resolveLazy(Leaf.self).instance)
            case "baseline-chain": blackHole(bare.resolve(Level1.self))
            default: blackHole(bare.resolve(Leaf.self))
            }
        } catch {
            fail(error)
        }
    }
    exit(0)
}


// Every case is timed against the baseline doing the same work: one lookup, four nested
// lookups for the chain, two threads at once for the two-thread case.
let measurements = [
    Measurement(name: "baseline", threads: 1, calls: iterations) { calls in
        for _ in 0..<calls { blackHole(bare.resolve(Leaf.self)) }
    },
    Measurement(name: "baseline chain", threads: 1, calls: iterations / 4) { calls in
        for _ in 0..<calls { blackHole(bare.resolve(Level1.self)) }
    },
    Measurement(name: "baseline two threads", threads: 2, calls: iterations) { calls in
        for _ in 0..<calls { blackHole(bare.resolve(Leaf.self)) }
    },
    Measurement(name: "baseline argument", threads: 1, calls: iterations) { calls in
        for _ in 0..<calls { blackHole(bare.resolve(PriceSource.self, argument: "BTC")) }
    },
    Measurement(name: "baseline lazy", threads: 1, calls: iterations) { calls in
        for _ in 0..<calls {
            let lazy = bare.resolveLazy(Leaf.self)
            blackHole(lazy.instance)
            blackHole(lazy.instance)
        }
    },
    Measurement(name: "bare lazy's instance, once made", threads: 1, calls: iterations) { calls in
        for _ in 0..<calls { blackHole(bareMadeLazy.instance) }
    },
    Measurement(name: "transient, no dependencies", threads: 1, calls: iterations) { calls in
        for _ in 0..<calls { blackHole(resolveOrFail { try container.resolve(Leaf.self) }) }
    },
    Measurement(name: "singleton", threads: 1, calls: iterations) { calls in
        for _ in 0..<calls { blackHole(resolveOrFail { try container.resolve(Leaf.self, name: "singleton") }) }
    },
    Measurement(name: "named, 1 of 50 (singleton)", threads: 1, calls: iterations) { calls in
        for _ in 0..<calls { blackHole(resolveOrFail { try container.resolve(PriceSource.self, name: wantedName) }) }
    },
    Measurement(name: "4-deep chain, graph scope (per chain)", threads: 1, calls: iterations / 4) { calls in
        for _ in 0..<calls { blackHole(resolveOrFail { try chain.resolve(Level1.self) }) }
    },
    Measurement(name: "singleton, 2 threads at once (per thread)", threads: 2, calls: iterations) { calls in
        for _ in 0..<calls { blackHole(resolveOrFail { try container.resolve(Leaf.self, name: "singleton") }) }
    },
    Measurement(name: "@Injected (transient, from the root)", threads: 1, calls: iterations) { calls in
        for _ in 0..<calls { blackHole(InjectedOwner()) }
    },
    Measurement(name: "Provider<T>.instance (transient)", threads: 1, calls: iterations) { calls in
        for _ in 0..<calls { blackHole(provider.instance) }
    },
    Measurement(name: "Lazy<T>: resolve, then .instance twice", threads: 1, calls: iterations) { calls in
        for _ in 0..<calls {
            let lazy = resolveOrFail { try container.resolve(Lazy<Leaf>.self) }
            blackHole(lazy.instance)
            blackHole(lazy.instance)
        }
    },
    Measurement(name: "Lazy<T>.instance, already made", threads: 1, calls: iterations) { calls in
        for _ in 0..<calls { blackHole(madeLazy.instance) }
    },
    Measurement(name: "resolve(T?.self), registered", threads: 1, calls: iterations) { calls in
        for _ in 0..<calls { blackHole(resolveOrFail { try container.resolve(Leaf?.self) }) }
    },
    Measurement(name: "with an argument (1 of 2 by type)", threads: 1, calls: iterations) { calls in
        for _ in 0..<calls { blackHole(resolveOrFail { try container.resolve(PriceSource.self, argument: "BTC") }) }
    },
    Measurement(name: "~> operator", threads: 1, calls: iterations) { calls in
        for _ in 0..<calls { blackHole(resolveOrFail { try container ~> Leaf.self }) }
    },
]
let times = nanosecondsPerCall(rounds: rounds, measurements)
let (baseline, baselineChain, baselineTwoThreads) = (times[0], times[1], times[2])
let (baselineArgument, baselineLazy, baselineLazyRead) = (times[3], times[4], times[5])
let baselines = 6
let likeForLike = [
    baseline, baseline, baseline, baselineChain, baselineTwoThreads, baseline, baseline, baselineLazy, baselineLazyRead,
    baseline, baselineArgument, baseline,
]

func format(_ value: Double) -> String {
    String(format: "%8.1f", value)
}

print("injection-benchmark\(quick ? " --quick" : ""): median of \(rounds) interleaved rounds, \(iterations) resolves a round (chain: \(iterations / 4))")
print("")
print("baseline (bare Mutex dictionary, 1 lookup):   \(format(baseline)) ns")
print("baseline, 4-deep chain (4 nested lookups):   \(format(baselineChain)) ns")
print("baseline, 2 threads at once (per thread):     \(format(baselineTwoThreads)) ns")
print("baseline with an argument (keyed by its type): \(format(baselineArgument)) ns")
print("baseline lazy (lookup, box, 2 reads, 1 make):  \(format(baselineLazy)) ns")
print("baseline lazy's read, once made:              \(format(baselineLazyRead)) ns")
print("")
print("case                                          ns/resolve  vs baseline  vs like-for-like")
for (index, measurement) in measurements.dropFirst(baselines).enumerated() {
    let nanoseconds = times[index + baselines]
    let name = measurement.name.padding(toLength: 44, withPad: " ", startingAt: 0)
    print("\(name) \(format(nanoseconds))    \(String(format: "%6.2fx", nanoseconds / baseline))      \(String(format: "%6.2fx", nanoseconds / likeForLike[index]))")
}

let before = residentKilobytes()
for _ in 0..<memoryResolutions {
    do { blackHole(try chain.resolve(Level1.self)) } catch { fail(error) }
}
let after = residentKilobytes()
print("")
print("resident memory around \(memoryResolutions) resolutions of the 4-deep graph-scope chain: \(before) KiB before, \(after) KiB after (\(after - before >= 0 ? "+" : "")\(after - before) KiB)")
