import ConcurrencyHelpers

/// Holds a weak-scope instance while something else keeps it alive.
final class WeakCache<Service: Sendable>: InstanceCache {
    // A box: `weak` needs a class type, and `Service` may be a protocol existential, so the
    // reference is typed `AnyObject`, which loses `Sendable`. It only ever holds an instance of
    // `Service`, which is `Sendable`, and is only touched under `reference`'s lock.
    private struct Reference: @unchecked Sendable {
        weak var object: AnyObject?
    }

    private let reference = Lock(Reference())
    /// Held while the factory runs. Its value is unused; it is not `Void` because ThreadSanitizer
    /// places a zero-sized value at the address of the lock's own fields and reports a race.
    private let creation = Lock(false)

    func instance(orMake make: () throws -> Service) throws -> Service {
        if let instance = current() {
            return instance
        }
        return try creation.withLock { _ in
            if let instance = current() {
                return instance
            }
            let instance = try make()
            // Only a class instance can be referenced weakly; a value is not kept (documented
            // on Scope.weak as behaving like transient).
            if type(of: instance as Any) is AnyObject.Type {
                let object = instance as AnyObject
                reference.withLock { $0.object = object }
            }
            return instance
        }
    }

    func reset() {
        reference.withLock { $0.object = nil }
    }

    private func current() -> Service? {
        reference.withLock { $0.object.flatMap { $0 as? Service } }
    }
}
