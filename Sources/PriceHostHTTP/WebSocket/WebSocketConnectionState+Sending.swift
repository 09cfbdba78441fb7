extension WebSocketConnectionState {
    /// The frame for a text message, masked: the bytes to write.
    /// - Throws: ``WebSocketError/Code/closing`` once the close handshake has started.
    package mutating func makeTextFrame(_ text: String) throws(WebSocketError) -> [UInt8] {
        try makeFrame(.text, Array(text.utf8))
    }

    /// The frame for a binary message, masked: the bytes to write.
    /// - Throws: ``WebSocketError/Code/closing`` once the close handshake has started.
    package mutating func makeBinaryFrame(_ bytes: [UInt8]) throws(WebSocketError) -> [UInt8] {
        try makeFrame(.binary, bytes)
    }

    /// A ping carrying `payload` (at most 125 bytes; a longer one is cut), masked: the bytes to write.
    /// The server's pong comes back as ``WebSocketEvent/pong(_:)`` with the same payload.
    /// - Throws: ``WebSocketError/Code/closing`` once the close handshake has started.
    package mutating func makePingFrame(_ payload: [UInt8] = []) throws(WebSocketError) -> [UInt8] {
        try makeFrame(.ping, Array(payload.prefix(WebSocketFrame.maximumControlPayloadSize)))
    }

    /// Starts the close handshake: the close frame to write. The server's answer
    /// arrives as ``WebSocketEvent/closed(code:reason:)``; until then its data is dropped.
    ///
    /// `code` must be one that may be sent (``WebSocketCloseCode/isAllowedOnWire``),
    /// else 1000 is sent; `reason` is cut to the 123 bytes a close frame has room
    /// for, on a character boundary.
    /// - Throws: ``WebSocketError/Code/closing`` if the handshake has started already.
    package mutating func startClose(code: WebSocketCloseCode = .normalClosure, reason: String = "") throws(WebSocketError) -> [UInt8] {
        let sent = code.isAllowedOnWire ? code : .normalClosure
        var payload = [UInt8(sent.rawValue >> 8), UInt8(sent.rawValue & 0xFF)]
        var room = WebSocketFrame.maximumControlPayloadSize - 2
        for scalar in reason.unicodeScalars {
            let encoded = Array(String(scalar).utf8)
            guard encoded.count <= room else { break }
            payload += encoded
            room -= encoded.count
        }
        let bytes = try makeFrame(.close, payload)
        phase = .closeSent
        return bytes
    }

    private mutating func makeFrame(_ opcode: WebSocketOpcode, _ payload: [UInt8]) throws(WebSocketError) -> [UInt8] {
        guard phase == .open else {
            throw WebSocketError(code: .closing, detail: "no \(opcode) frame can be sent once the close handshake has started",
                                 description: "WebSocket connection is closing: no \(opcode) frame can be sent once the close handshake has started")
        }
        var output: [UInt8] = []
        append(WebSocketFrame(opcode: opcode, payload: payload), to: &output)
        return output
    }
}
