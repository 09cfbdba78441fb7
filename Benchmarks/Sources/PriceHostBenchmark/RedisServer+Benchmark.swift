import PriceHostTesting

extension RedisServer {
    /// A redis-server of the case's own (``RedisServer``), or nil when none is installed, after
    /// the case's section says it is skipped and why.
    /// - Throws: ``BenchmarkError`` naming the case when it is installed but does not start.
    static func start(forCase name: String) throws -> RedisServer? {
        guard installed != nil else {
            Report.section("\(name): skipped")
            Report.note(missingReason)
            return nil
        }
        do { return try RedisServer() } catch { throw BenchmarkError("\(name): \(error)") }
    }
}
