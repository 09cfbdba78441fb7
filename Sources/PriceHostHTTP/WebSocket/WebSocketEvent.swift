/// What the server's bytes amounted to, in order, as ``WebSocketConnectionState/feed(_:)`` reports it.
package enum WebSocketEvent: Equatable, Sendable {
    /// A complete text message, valid UTF-8.
    case text(String)
    /// A complete binary message.
    case binary([UInt8])
    /// A pong, with its payload: the answer to a ping of ours, or a heartbeat.
    case pong([UInt8])
    /// The server's close frame: its code (1005 when it sent none) and reason.
    /// The close reply, if one is owed, is already in the output; the caller
    /// then closes the connection once the server has.
    case closed(code: WebSocketCloseCode, reason: String)
    /// The server broke the protocol: the output ends with the close frame
    /// carrying the error's ``WebSocketError/closeCode`` (unless one was sent
    /// already); write it, then drop the connection. Always the last event.
    case protocolError(WebSocketError)
}

/// Takes a connection's events on the connection's own thread, in order, in place of
/// ``WebSocketConnection/events`` (which then only finishes): a message costs no hand-off
/// to another thread. Given to ``WebSocketConnection/connect(to:options:handler:)``, so no
/// event can arrive before it.
package protocol WebSocketEventHandler: Sendable {
    /// One event, on the connection's thread, which reads nothing more until it returns: it
    /// must not block. Returns text messages to send in reply, in order; they are dropped
    /// once the close handshake has started.
    func received(_ event: WebSocketEvent) -> [String]
    /// The connection has ended, after its last event (and its socket is closed): once, on its thread.
    func ended()
}
