/// One command, or one of the fleet's scripts, as a caller hands it to ``RedisClient``.
enum RedisCall: Sendable, Equatable {
    /// A plain command: `["GET", "key"]`.
    case command([String])
    /// A script by its SHA-1 (`EVALSHA`), with `EVAL` when Redis does not know it.
    case script(RedisScript, keys: [String], arguments: [String])
}
