extension WebSocketError.Code {
    /// libcurl could not be loaded, or could not make a handle or a thread.
    package static let unavailable = WebSocketError.Code(name: "unavailable")
    /// No connection: the host was not found, the connection was refused, a proxy failed.
    package static let connectFailed = WebSocketError.Code(name: "connect_failed")
    /// The TLS handshake failed, or the server's certificate is not trusted.
    package static let tlsFailed = WebSocketError.Code(name: "tls_failed")
    /// The connection or the handshake took longer than its option allows.
    package static let timedOut = WebSocketError.Code(name: "timed_out")
    /// The connection ended (the peer closed it, or it broke), or was ended, and can carry nothing more.
    package static let connectionClosed = WebSocketError.Code(name: "connection_closed")
}

extension WebSocketError {
    /// Opening a connection to `url` failed with `code`; `detail` says how.
    package static func connect(_ code: Code, _ url: WebSocketURL, _ detail: String) -> WebSocketError {
        WebSocketError(code: code, detail: detail, description: "WebSocket connection to \(url) failed: \(detail)")
    }

    /// The connection to `url` has ended; `detail` says why, for a send that came too late.
    package static func connectionClosed(_ url: WebSocketURL, _ detail: String) -> WebSocketError {
        WebSocketError(code: .connectionClosed, detail: detail, description: "WebSocket connection to \(url) is closed: \(detail)")
    }
}
