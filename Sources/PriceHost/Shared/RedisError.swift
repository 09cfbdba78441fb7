/// Why a Redis exchange did not happen. The fleet then falls back to the
/// instance's own cache, coalescing and limits; this is what the warning says.
struct RedisError: Error, Equatable, CustomStringConvertible {
    /// What failed, in our words: `connection refused`, `no reply within 0.5 s`, ….
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
