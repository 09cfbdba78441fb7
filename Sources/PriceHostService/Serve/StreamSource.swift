/// Where ``StreamHub``'s topics get their events: `serve`'s routes (``ServeStreamSource``), or a test's.
package protocol StreamSource: Sendable {
    /// The feed that pushes `topic`'s events, when one does (its provider's `"stream": true`);
    /// `nil`: the topic ticks, and ``event(for:)`` makes each tick's event.
    func push(for topic: StreamHub.TopicKey) -> StreamHub.Push?

    /// One tick's event of a polled topic: `data: {…}\n\n`, or `event: error` with the failure.
    func event(for topic: StreamHub.TopicKey) async -> String
}

extension StreamSource {
    package func push(for topic: StreamHub.TopicKey) -> StreamHub.Push? { nil }
}
