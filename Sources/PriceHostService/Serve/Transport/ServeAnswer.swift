/// What a request gets: a response, or a stream that takes the connection over.
package enum ServeAnswer: Sendable {
    /// A response, counted under `route` (a fixed name, for metrics).
    case response(ServeResponse, route: String)
    /// Server-Sent Events from `source` until the client leaves or the server stops.
    case stream(any ServeEventSource)
}

/// What a handler returns: the answer now, or work that makes it later.
///
/// A handler runs on the event loop that owns the connection, so it must not wait: one that
/// needs async code (a quote fetch, Redis) returns ``later(_:)``. That work runs on Swift's
/// cooperative pool, and its answer is handed back to the loop, which writes it in the
/// connection's request order; meanwhile the loop serves its other connections.
package enum ServeReply: Sendable {
    /// The answer, made on the loop's thread.
    case now(ServeAnswer)
    /// Work whose answer comes later: it runs in a task of its own.
    case later(@Sendable () async -> ServeAnswer)

    /// A response now, counted under `route`.
    package static func response(_ response: ServeResponse, route: String) -> ServeReply {
        .now(.response(response, route: route))
    }
}

/// Where a stream's events come from: the application makes them, the transport writes them.
/// A stream writer ``subscribe(ready:)``s once, when the SSE head is on its way.
package protocol ServeEventSource: Sendable {
    /// Starts the events; `ready` tells the stream's writer (from any thread) that events wait to be taken,
    /// and is not called again until they are. `nil` when the stream cannot start (the server stops).
    func subscribe(ready: @escaping @Sendable () -> Void) -> (any ServeEventSubscription)?
}

/// One client's events, as its stream writer takes them.
package protocol ServeEventSubscription: Sendable {
    /// The events waiting, oldest first, each whole (`id: …\ndata: …\n\n`).
    func take() -> [String]
    /// The last words of a client that stayed behind too long, once it has (at `now`); `nil` while it keeps up.
    /// The writer then drops the events it has not started, sends these, and closes within a few seconds.
    func lastWords(at now: ContinuousClock.Instant) -> String?
    /// The stream ended (the client left, or the server stops): no more events.
    func cancel()
}
