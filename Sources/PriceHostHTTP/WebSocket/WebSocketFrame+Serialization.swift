extension WebSocketFrame {
    /// The bytes of a frame header at most: 2, 8 for a 64-bit length, 4 for the mask.
    package static let maximumHeaderSize = 14

    /// Appends the frame as it goes on the wire to `output`.
    ///
    /// A client masks every frame (RFC 6455 §5.3): pass a fresh random key for
    /// each. `nil` writes the frame unmasked, as a server does; the tests use
    /// that to play the server. The length takes the shortest encoding.
    package func serialize(into output: inout [UInt8], maskingKey: UInt32?) {
        output.reserveCapacity(output.count + Self.maximumHeaderSize + payload.count)
        output.append((fin ? 0x80 : 0) | (reservedBits & 0x7) << 4 | opcode.rawValue)
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        switch payload.count {
        case 0...125:
            output.append(maskBit | UInt8(payload.count))
        case 126...0xFFFF:
            output.append(maskBit | 126)
            output.append(UInt8(truncatingIfNeeded: payload.count >> 8))
            output.append(UInt8(truncatingIfNeeded: payload.count))
        default:
            output.append(maskBit | 127)
            let length = UInt64(payload.count)
            for shift in stride(from: 56, through: 0, by: -8) {
                output.append(UInt8(truncatingIfNeeded: length >> UInt64(shift)))
            }
        }
        guard let maskingKey else {
            output.append(contentsOf: payload)
            return
        }
        let key: [UInt8] = [UInt8(truncatingIfNeeded: maskingKey >> 24), UInt8(truncatingIfNeeded: maskingKey >> 16),
                            UInt8(truncatingIfNeeded: maskingKey >> 8), UInt8(truncatingIfNeeded: maskingKey)]
        output.append(contentsOf: key)
        let start = output.count
        output.append(contentsOf: payload)
        output.withUnsafeMutableBytes { buffer in
            Self.mask(UnsafeMutableRawBufferPointer(rebasing: buffer[start...]), key: maskingKey)
        }
    }

    /// The frame as it goes on the wire (see ``serialize(into:maskingKey:)``).
    package func serialized(maskingKey: UInt32?) -> [UInt8] {
        var output: [UInt8] = []
        serialize(into: &output, maskingKey: maskingKey)
        return output
    }

    /// XORs `bytes` with the key, its most significant byte first (RFC 6455 §5.3);
    /// masking twice with one key gives the bytes back.
    package static func mask(_ bytes: UnsafeMutableRawBufferPointer, key: UInt32) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        // Eight bytes at a time: the key repeated, in memory order.
        let keyBytes = key.bigEndian
        let word = UInt64(keyBytes) | UInt64(keyBytes) << 32
        var index = 0
        while index &+ 8 <= count {
            let value = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            base.storeBytes(of: value ^ word, toByteOffset: index, as: UInt64.self)
            index &+= 8
        }
        while index < count {
            let shift = UInt32(24 &- (index & 3) &* 8)
            base.storeBytes(of: base.load(fromByteOffset: index, as: UInt8.self) ^ UInt8(truncatingIfNeeded: key >> shift),
                            toByteOffset: index, as: UInt8.self)
            index &+= 1
        }
    }
}
