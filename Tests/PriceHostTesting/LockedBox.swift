import ConcurrencyHelpers

/// A value shared between a test and the threads it starts.
public final class LockedBox<Value: Sendable>: Sendable {
    private let value: Lock<Value>

    /// Creates a box holding `value`.
    public init(_ value: Value) { self.value = Lock(value) }

    /// The current value.
    public func get() -> Value { value.withLock { $0 } }

    /// Replaces the value.
    public func set(_ newValue: Value) { value.withLock { $0 = newValue } }

    /// Changes the value in place and returns what `body` returns.
    public func update<Result: Sendable>(_ body: (inout Value) -> Result) -> Result { value.withLock { body(&$0) } }
}
