import ConcurrencyHelpers
import Injection
import Synchronization

// Small services the tests resolve.

protocol PriceFetcher: Sendable {
    var source: String { get }
}

final class StubFetcher: PriceFetcher {
    let source: String

    init(source: String) {
        self.source = source
    }
}

final class Counter: Sendable {
    private let value = Atomic(0)

    var count: Int {
        value.load(ordering: .sequentiallyConsistent)
    }

    /// Adds one and returns the new count.
    @discardableResult
    func increment() -> Int {
        value.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
    }
}

/// Collects values from several threads. (Behind the package's `Lock`: ThreadSanitizer
/// cannot see a contended `Synchronization.Mutex` hand over on Linux.)
final class Recorder<Value: Sendable>: Sendable {
    private let storage = Lock<[Value]>([])

    var values: [Value] {
        storage.withLock { $0 }
    }

    func append(_ value: Value) {
        storage.withLock { $0.append(value) }
    }
}

final class Dependency: Sendable {
    init() {}
}

final class Service: Sendable {
    let dependency: Dependency

    init(dependency: Dependency) {
        self.dependency = dependency
    }
}

final class Pair: Sendable {
    let first: Service
    let second: Service

    init(first: Service, second: Service) {
        self.first = first
        self.second = second
    }
}

/// Not Sendable on purpose: the container must still serve it in transient and graph scope.
final class Scratchpad {
    var notes: [String] = []
}

struct Plain: Sendable, Equatable {
    let id: Int
}

struct FailingFactory: Error, CustomStringConvertible {
    let description: String
}

/// True when both are the same class instance. (Written out in `#expect`, comparing
/// `as AnyObject` casts crashes the 6.3.1 compiler.)
func isSameInstance(_ first: Any, _ second: Any) -> Bool {
    (first as AnyObject) === (second as AnyObject)
}
