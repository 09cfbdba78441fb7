@testable import PriceHostHTTP

/// Plays the server: unmasked frames, as a server sends them.
enum ServerFrames {
    static func frame(_ opcode: WebSocketOpcode, _ payload: [UInt8] = [], fin: Bool = true, reservedBits: UInt8 = 0) -> [UInt8] {
        WebSocketFrame(fin: fin, reservedBits: reservedBits, opcode: opcode, payload: payload).serialized(maskingKey: nil)
    }

    static func text(_ text: String, fin: Bool = true) -> [UInt8] { frame(.text, Array(text.utf8), fin: fin) }

    static func close(_ code: UInt16, _ reason: String = "") -> [UInt8] {
        frame(.close, [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8))
    }
}

/// A generator whose whole sequence is fixed: masking keys and nonces tests can predict.
struct CountingGenerator: RandomNumberGenerator, Sendable {
    var state: UInt64 = 0x0123_4567_89AB_CDEF
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return state
    }
}

extension WebSocketConnectionState {
    /// A connection with predictable masking keys.
    static func testing(maximumMessageSize: Int = WebSocketConnectionState.defaultMaximumMessageSize) -> WebSocketConnectionState {
        WebSocketConnectionState(maximumMessageSize: maximumMessageSize, random: CountingGenerator())
    }
}

/// Reads the client's (masked) frames back, as the server would.
enum ClientFrames {
    /// The frames in `bytes`, unmasked; fails the test through `nil` if they are not well-formed masked frames.
    static func parse(_ bytes: [UInt8]) -> [WebSocketFrame]? {
        var frames: [WebSocketFrame] = []
        var index = 0
        for _ in 0..<1_000 {
            guard index < bytes.count else { return frames }
            guard bytes.count - index >= 2 else { return nil }
            let first = bytes[index], second = bytes[index + 1]
            guard second & 0x80 != 0 else { return nil }
            var length = Int(second & 0x7F)
            var cursor = index + 2
            if length == 126 {
                guard bytes.count >= cursor + 2 else { return nil }
                length = Int(bytes[cursor]) << 8 | Int(bytes[cursor + 1])
                cursor += 2
            } else if length == 127 {
                guard bytes.count >= cursor + 8 else { return nil }
                length = 0
                for offset in 0..<8 { length = length << 8 | Int(bytes[cursor + offset]) }
                cursor += 8
            }
            guard bytes.count >= cursor + 4 + length else { return nil }
            let key = Array(bytes[cursor..<(cursor + 4)])
            cursor += 4
            let payload = (0..<length).map { bytes[cursor + $0] ^ key[$0 % 4] }
            guard let opcode = WebSocketOpcode(rawValue: first & 0xF) else { return nil }
            frames.append(WebSocketFrame(fin: first & 0x80 != 0, reservedBits: (first >> 4) & 7, opcode: opcode, payload: payload))
            index = cursor + length
        }
        return nil
    }
}
