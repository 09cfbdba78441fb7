/// Why a WebSocket could not be opened or had to be closed, in one line that
/// names what failed: the URL, the handshake's header, or the frame.
///
/// Errors found on an open connection carry the close code to send before the
/// connection is dropped (``closeCode``): 1002 for a protocol violation, 1007
/// for text that is not UTF-8, 1009 for a message over the limit.
package struct WebSocketError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What kind of failure this is; the set will grow.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as the description of an error may show it.
        package let name: String

        /// The URL is not a `ws://` or `wss://` URL the client can open, or an extra header is not one it can send.
        package static let invalidRequest = Code(name: "invalid_request")
        /// The server's response head is not HTTP/1.1 the client can read, or is over the size limit.
        package static let handshakeMalformed = Code(name: "handshake_malformed")
        /// The server answered, but not with the upgrade the client asked for.
        package static let handshakeRefused = Code(name: "handshake_refused")
        /// A frame or a sequence of frames breaks RFC 6455 (close 1002).
        package static let protocolError = Code(name: "protocol_error")
        /// A message is over the configured size limit (close 1009).
        package static let messageTooBig = Code(name: "message_too_big")
        /// A text message or a close reason is not UTF-8 (close 1007).
        package static let invalidUTF8 = Code(name: "invalid_utf8")
        /// A frame was to be sent after the close handshake started.
        package static let closing = Code(name: "closing")

        package var description: String { name }
    }

    /// What kind of failure this is.
    package let code: Code
    /// The close code that answers the failure on the wire, for errors on an open connection.
    package let closeCode: WebSocketCloseCode?
    /// What failed, without the prefix the description adds: "a masked frame from the server".
    package let detail: String
    /// The one line a user reads.
    package let description: String

    /// An error of `code` whose one-line description is `description`.
    package init(code: Code, closeCode: WebSocketCloseCode? = nil, detail: String, description: String) {
        self.code = code
        self.closeCode = closeCode
        self.detail = detail
        self.description = description
    }

    /// A frame or frame sequence that breaks RFC 6455: the connection is closed with 1002.
    package static func protocolViolation(_ detail: String) -> WebSocketError {
        WebSocketError(code: .protocolError, closeCode: .protocolError, detail: detail,
                       description: "WebSocket protocol error (closing with 1002): \(detail)")
    }

    /// More pings in one second than `limit`: the connection is closed with 1008 (policy violation).
    package static func pingFlood(limit: Int) -> WebSocketError {
        let detail = "a flood of pings, more than \(limit) in one second"
        return WebSocketError(code: .protocolError, closeCode: .policyViolation, detail: detail,
                              description: "WebSocket server misbehaved (closing with 1008): \(detail)")
    }

    /// A message longer than `limit`: the connection is closed with 1009.
    package static func messageTooBig(atLeast size: Int, limit: Int) -> WebSocketError {
        let detail = "a message of at least \(size) bytes, over the limit of \(limit)"
        return WebSocketError(code: .messageTooBig, closeCode: .messageTooBig, detail: detail,
                              description: "WebSocket message refused (closing with 1009): \(detail)")
    }

    /// Text that is not UTF-8 (`what` says whose: "a text message", "a close reason"): the connection is closed with 1007.
    package static func invalidUTF8(in what: String) -> WebSocketError {
        let detail = "\(what) is not valid UTF-8"
        return WebSocketError(code: .invalidUTF8, closeCode: .invalidPayload, detail: detail,
                              description: "WebSocket protocol error (closing with 1007): \(detail)")
    }

    /// A handshake with `url` whose answer is not an acceptable upgrade.
    package static func handshakeRefused(_ url: WebSocketURL, _ detail: String) -> WebSocketError {
        WebSocketError(code: .handshakeRefused, detail: detail, description: "WebSocket handshake with \(url) refused: \(detail)")
    }

    /// A handshake with `url` whose answer cannot be read as an HTTP/1.1 response head.
    package static func handshakeMalformed(_ url: WebSocketURL, _ detail: String) -> WebSocketError {
        WebSocketError(code: .handshakeMalformed, detail: detail,
                       description: "WebSocket handshake with \(url) failed: the answer is malformed: \(detail)")
    }

    /// A URL or header the client will not send.
    package static func invalidRequest(_ subject: String, _ detail: String) -> WebSocketError {
        WebSocketError(code: .invalidRequest, detail: detail, description: "WebSocket \(subject) is not usable: \(detail)")
    }

    /// `text` from the network, quoted, made printable and cut short, so a description stays one readable line.
    static func quoted(_ text: some StringProtocol, limit: Int = 80) -> String {
        var output = "\""
        var count = 0
        for scalar in text.unicodeScalars {
            guard count < limit else {
                output += "…"
                break
            }
            count += 1
            switch scalar.value {
            case 0x22: output += "\\\""
            case 0x5C: output += "\\\\"
            case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029: output += "\\u{\(String(scalar.value, radix: 16))}"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
