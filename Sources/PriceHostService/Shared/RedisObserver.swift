/// What the client reports: `serve`'s metrics.
protocol RedisObserver: Sendable {
    /// A pipeline went to Redis and its replies came back in `duration`.
    func redisExchanged(duration: Duration)
    /// A connection attempt or an exchange failed, or Redis refused a call (a key of the wrong type).
    func redisFailed()
}
