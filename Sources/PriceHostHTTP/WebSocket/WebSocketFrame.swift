/// One WebSocket frame (RFC 6455 §5.2), as read from the server or to be sent.
///
/// The frame parser hands these out with their payload unmasked; a client
/// frame is masked as it is serialized (``serialize(into:maskingKey:)``).
package struct WebSocketFrame: Equatable, Sendable {
    /// The largest payload a control frame (close, ping, pong) may carry.
    package static let maximumControlPayloadSize = 125

    /// Whether this is the last frame of its message.
    package var fin: Bool
    /// RSV1, RSV2 and RSV3 as the low three bits (RSV1 is 0b100); zero unless an extension says otherwise.
    package var reservedBits: UInt8
    /// What the frame carries.
    package var opcode: WebSocketOpcode
    /// The application data, unmasked.
    package var payload: [UInt8]

    /// A frame of `opcode` carrying `payload`; final and without reserved bits unless said.
    package init(fin: Bool = true, reservedBits: UInt8 = 0, opcode: WebSocketOpcode, payload: [UInt8] = []) {
        self.fin = fin
        self.reservedBits = reservedBits
        self.opcode = opcode
        self.payload = payload
    }
}
