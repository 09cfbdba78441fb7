/// A frame's opcode (RFC 6455 §5.2): the ones defined; any other is refused.
package enum WebSocketOpcode: UInt8, Sendable, CustomStringConvertible {
    /// A further fragment of the message in progress.
    case continuation = 0x0
    /// The first (or only) frame of a text message.
    case text = 0x1
    /// The first (or only) frame of a binary message.
    case binary = 0x2
    /// The close handshake.
    case close = 0x8
    /// A ping, to be answered by a pong with the same payload.
    case ping = 0x9
    /// A pong: the answer to a ping, or a unidirectional heartbeat.
    case pong = 0xA

    /// Close, ping and pong: at most 125 bytes of payload, never fragmented.
    package var isControl: Bool { rawValue & 0x8 != 0 }

    package var description: String {
        switch self {
        case .continuation: "continuation"
        case .text: "text"
        case .binary: "binary"
        case .close: "close"
        case .ping: "ping"
        case .pong: "pong"
        }
    }
}
