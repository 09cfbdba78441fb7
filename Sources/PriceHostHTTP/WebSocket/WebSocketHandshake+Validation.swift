extension WebSocketHandshake {
    /// What an accepted handshake settled.
    package struct Upgrade: Equatable, Sendable {
        /// The subprotocol the server chose from those offered, if it chose one.
        package let selectedProtocol: String?
        /// The server's response head.
        package let head: WebSocketResponseHead
        /// The bytes that followed the head: the start of the frame stream, for the connection to feed.
        package let remainder: [UInt8]
    }

    /// Checks the server's response head (RFC 6455 §4.1, the client's checks):
    /// status 101, `Upgrade: websocket`, `Connection` including `Upgrade`, the
    /// right `Sec-WebSocket-Accept`, no extension, and a subprotocol only if
    /// it is one of those offered.
    /// - Returns: the subprotocol the server chose, if any.
    /// - Throws: ``WebSocketError/Code/handshakeRefused``, naming the URL and the header at fault.
    package func validate(_ head: WebSocketResponseHead) throws(WebSocketError) -> String? {
        guard head.status == 101 else {
            throw .handshakeRefused(url, "the server answered \(head.status) \(WebSocketError.quoted(head.reason)), not 101 Switching Protocols")
        }
        let upgrade = head.listValues(of: "upgrade")
        guard !upgrade.isEmpty else { throw .handshakeRefused(url, "the answer has no Upgrade header") }
        guard upgrade.contains(where: { $0.lowercased() == "websocket" }) else {
            throw .handshakeRefused(url, "Upgrade is \(WebSocketError.quoted(upgrade.joined(separator: ", "))), not websocket")
        }
        guard head.listValues(of: "connection").contains(where: { $0.lowercased() == "upgrade" }) else {
            throw .handshakeRefused(url, "the answer's Connection header does not include Upgrade")
        }
        let accepts = head.values(of: "sec-websocket-accept")
        guard let accept = accepts.first else { throw .handshakeRefused(url, "the answer has no Sec-WebSocket-Accept header") }
        guard accepts.count == 1 else { throw .handshakeRefused(url, "the answer has \(accepts.count) Sec-WebSocket-Accept headers") }
        guard accept == expectedAccept else {
            throw .handshakeRefused(url, "Sec-WebSocket-Accept is \(WebSocketError.quoted(accept)), not \(expectedAccept), the answer to this key")
        }
        if let extensions = head.listValues(of: "sec-websocket-extensions").first {
            throw .handshakeRefused(url, "the server chose extension \(WebSocketError.quoted(extensions)), which the client did not offer")
        }
        let chosen = head.listValues(of: "sec-websocket-protocol")
        guard let selected = chosen.first else { return nil }
        guard chosen.count == 1, protocols.contains(selected) else {
            throw .handshakeRefused(url, "the server chose subprotocol \(WebSocketError.quoted(chosen.joined(separator: ", "))), which the client did not offer")
        }
        return selected
    }
}
