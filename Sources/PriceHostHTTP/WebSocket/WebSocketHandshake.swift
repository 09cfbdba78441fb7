import FoundationEssentials

/// The client's opening handshake (RFC 6455 §4.1): the HTTP/1.1 upgrade
/// request for a URL, and the check of the server's answer.
///
/// No extension is offered, so none may be accepted; subprotocols are offered
/// only when asked for, and the server may choose only one of them.
package struct WebSocketHandshake: Sendable {
    /// A header field: its name and value.
    package struct Field: Equatable, Sendable {
        /// The name, as sent.
        package let name: String
        /// The value, as sent.
        package let value: String

        /// The field `name: value`.
        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The GUID RFC 6455 §1.3 appends to the key before hashing it.
    package static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
    /// Headers the handshake sets itself, which extra headers may not override (lower-cased).
    static let reservedHeaders: Set<String> = ["host", "upgrade", "connection", "sec-websocket-key", "sec-websocket-version",
                                               "sec-websocket-protocol", "sec-websocket-extensions", "sec-websocket-accept", "content-length",
                                               "transfer-encoding"]

    /// Where the handshake goes.
    package let url: WebSocketURL
    /// The `Sec-WebSocket-Key`: 16 random bytes in base64.
    package let key: String
    /// The subprotocols offered, in order of preference; none by default.
    package let protocols: [String]
    /// Headers sent after the handshake's own (an `Origin`, an API key).
    package let extraHeaders: [Field]

    /// A handshake for `url` whose key is 16 bytes from `random`.
    /// - Throws: ``WebSocketError/Code/invalidRequest`` for a header or subprotocol that cannot be sent.
    package init(url: WebSocketURL, protocols: [String] = [], extraHeaders: [Field] = [],
                 random: inout some RandomNumberGenerator) throws(WebSocketError) {
        var nonce: [UInt8] = []
        for _ in 0..<2 {
            let word = random.next()
            for shift in stride(from: 0, to: 64, by: 8) { nonce.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        try self.init(url: url, protocols: protocols, extraHeaders: extraHeaders, nonce: nonce)
    }

    /// A handshake for `url` whose key is 16 bytes from the system's generator.
    /// - Throws: ``WebSocketError/Code/invalidRequest`` for a header or subprotocol that cannot be sent.
    package init(url: WebSocketURL, protocols: [String] = [], extraHeaders: [Field] = []) throws(WebSocketError) {
        var random = SystemRandomNumberGenerator()
        try self.init(url: url, protocols: protocols, extraHeaders: extraHeaders, random: &random)
    }

    /// A handshake whose key is `nonce` (16 bytes; RFC 6455's example is "the sample nonce") in base64.
    /// - Throws: ``WebSocketError/Code/invalidRequest`` for a nonce that is not 16 bytes, or a header or subprotocol that cannot be sent.
    package init(url: WebSocketURL, protocols: [String] = [], extraHeaders: [Field] = [], nonce: [UInt8]) throws(WebSocketError) {
        guard nonce.count == 16 else { throw .invalidRequest("handshake key", "the nonce is \(nonce.count) bytes, not 16") }
        for name in protocols where !Self.isToken(name) {
            throw .invalidRequest("subprotocol \(WebSocketError.quoted(name))", "a subprotocol name must be an HTTP token")
        }
        for field in extraHeaders {
            let subject = "header \(WebSocketError.quoted(field.name))"
            guard Self.isToken(field.name) else { throw .invalidRequest(subject, "a header name must be an HTTP token") }
            guard !Self.reservedHeaders.contains(field.name.lowercased()) else {
                throw .invalidRequest(subject, "the handshake sets it itself")
            }
            guard !field.value.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) else {
                throw .invalidRequest(subject, "its value contains a control character")
            }
        }
        self.url = url
        self.key = Data(nonce).base64EncodedString()
        self.protocols = protocols
        self.extraHeaders = extraHeaders
    }

    /// The request head to send: the request line, the headers, the empty line.
    package var request: [UInt8] {
        var text = "GET \(url.requestTarget) HTTP/1.1\r\n"
        text += "Host: \(url.hostHeader)\r\n"
        text += "Upgrade: websocket\r\n"
        text += "Connection: Upgrade\r\n"
        text += "Sec-WebSocket-Key: \(key)\r\n"
        text += "Sec-WebSocket-Version: 13\r\n"
        if !protocols.isEmpty { text += "Sec-WebSocket-Protocol: \(protocols.joined(separator: ", "))\r\n" }
        for field in extraHeaders { text += "\(field.name): \(field.value)\r\n" }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// The `Sec-WebSocket-Accept` the server must answer this handshake's key with.
    package var expectedAccept: String { Self.accept(forKey: key) }

    /// base64(SHA-1(`key` + the GUID)): what a server answers a key with (RFC 6455 §4.2.2).
    package static func accept(forKey key: String) -> String {
        Data(SHA1.digest(Array((key + acceptGUID).utf8))).base64EncodedString()
    }

    /// Whether `text` is an HTTP token (RFC 9110 §5.6.2): a header name, a subprotocol.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }
}
