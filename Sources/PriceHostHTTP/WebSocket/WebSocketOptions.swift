/// How a ``WebSocketConnection`` connects, and what it accepts.
package struct WebSocketOptions: Sendable {
    /// A PEM file of the CAs that may sign a `wss://` server's certificate, as a provider's
    /// `caFile`; `nil` (the default) for the system's CAs.
    package var caFile: String?
    /// The most the TCP connection, a proxy's tunnel and the TLS handshake may take together: 10 s by default.
    package var connectTimeout: Duration
    /// The most the upgrade may take once connected, from the request to the server's 101: 10 s by default.
    package var handshakeTimeout: Duration
    /// How long ``WebSocketConnection/close(code:reason:)`` waits for the server's close frame: 2 s by default.
    package var closeTimeout: Duration
    /// The largest message accepted, in payload bytes: 1 MiB by default. A larger one closes the connection with 1009.
    package var maxMessageBytes: Int
    /// Headers sent with the upgrade request (an `Origin`, an API key); not those the handshake sets itself.
    package var headers: [WebSocketHandshake.Field]
    /// Subprotocols offered, in order of preference; none by default.
    package var protocols: [String]
    /// The libcurl to load: a soname or a path (`PRICEHOST_LIBCURL`, or ``LibCurl/defaultName``).
    package var libraryName: String

    /// Options with the defaults above, changed where given.
    package init(caFile: String? = nil, connectTimeout: Duration = .seconds(10), handshakeTimeout: Duration = .seconds(10),
                 closeTimeout: Duration = .seconds(2), maxMessageBytes: Int = WebSocketConnectionState.defaultMaximumMessageSize,
                 headers: [WebSocketHandshake.Field] = [], protocols: [String] = [], libraryName: String = LibCurl.defaultName) {
        self.caFile = caFile
        self.connectTimeout = connectTimeout
        self.handshakeTimeout = handshakeTimeout
        self.closeTimeout = closeTimeout
        self.maxMessageBytes = maxMessageBytes
        self.headers = headers
        self.protocols = protocols
        self.libraryName = libraryName
    }
}
