/// What the client reports: `serve`'s metrics.
protocol RedisObserver: Sendable {
    /// A pipeline went to Redis and its replies came back in `duration`.
    func redisExchanged(duration: Duration)
    /// A connection attempt or an exchange failed.
    func redisFailed()
}
