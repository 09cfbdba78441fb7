/// Why a Redis exchange did not happen. The fleet then falls back to the
/// instance's own cache, coalescing and limits; this is what the warning says.
struct RedisError: Error, Equatable, CustomStringConvertible {
    /// What failed, in our words: `connection refused`, `no reply from redis in time`, ….
    package var description: String
    /// True when Redis did not answer in time (slow, not gone): trying again at once would only wait again.
    package var timedOut = false

    init(_ description: String, timedOut: Bool = false) {
        self.description = description
        self.timedOut = timedOut
    }
}
