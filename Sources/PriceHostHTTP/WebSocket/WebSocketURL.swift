/// A `ws://` or `wss://` URL, taken apart for the handshake (RFC 6455 §3):
/// where to connect and what to ask for.
///
/// Refused: other schemes, user info, a fragment (RFC 6455 forbids one), an
/// empty host or bad port, and any space or control character (a header must
/// not be injectable through the URL).
package struct WebSocketURL: Equatable, Sendable, CustomStringConvertible {
    /// `wss`: TLS.
    package let isSecure: Bool
    /// The host, lower-cased; an IPv6 literal keeps its brackets.
    package let host: String
    /// The port: as given, else 80 for `ws` and 443 for `wss`.
    package let port: Int
    /// The path and query, as the request line carries them: `/` when the URL has no path.
    package let requestTarget: String

    /// Takes `text` apart.
    /// - Throws: ``WebSocketError/Code/invalidRequest``, naming the URL and what is wrong with it.
    package init(_ text: String) throws(WebSocketError) {
        func refuse(_ detail: String) -> WebSocketError { .invalidRequest("URL \(WebSocketError.quoted(text))", detail) }
        guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            throw refuse("it contains a space or a control character")
        }
        guard !text.contains("#") else { throw refuse("it has a fragment, which a WebSocket URL must not") }
        let rest: Substring
        if text.lowercased().hasPrefix("ws://") {
            isSecure = false
            rest = text.dropFirst(5)
        } else if text.lowercased().hasPrefix("wss://") {
            isSecure = true
            rest = text.dropFirst(6)
        } else {
            throw refuse("the scheme is not ws:// or wss://")
        }
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let target = rest[authorityEnd...]
        guard !authority.contains("@") else { throw refuse("it has user info, which the client does not send") }
        let hostPart: Substring
        let portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw refuse("the IPv6 address has no closing bracket") }
            hostPart = authority[...close]
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { throw refuse("something follows the IPv6 address") }
            portPart = after.isEmpty ? nil : after.dropFirst()
        } else if let colon = authority.firstIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        } else {
            hostPart = authority
            portPart = nil
        }
        guard !hostPart.isEmpty, hostPart != "[]" else { throw refuse("it has no host") }
        host = hostPart.lowercased()
        if let portPart {
            guard portPart.count <= 5, portPart.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(portPart), (1...65535).contains(number) else {
                throw refuse("the port \(WebSocketError.quoted(portPart)) is not a number from 1 to 65535")
            }
            port = number
        } else {
            port = isSecure ? 443 : 80
        }
        requestTarget = target.hasPrefix("/") ? String(target) : "/" + target
    }

    /// The `Host` header's value: the port only when it is not the scheme's default.
    package var hostHeader: String {
        port == (isSecure ? 443 : 80) ? host : "\(host):\(port)"
    }

    /// The same endpoint as `http://` or `https://`, as a transport that connects over HTTP's machinery (libcurl) needs it.
    package var httpURL: String {
        (isSecure ? "https://" : "http://") + hostHeader + requestTarget
    }

    /// The URL, normalized: `wss://host[:port]/path?query`.
    package var description: String {
        (isSecure ? "wss://" : "ws://") + hostHeader + requestTarget
    }
}
