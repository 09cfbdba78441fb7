/// Cuts server-to-client frames out of the bytes as they arrive (RFC 6455 §5.2).
///
/// Incremental: hand it each chunk read from the connection and pull frames
/// until it answers `nil` (the chunk is consumed, the next frame is
/// incomplete). It keeps only the header of the frame in progress (at most 14
/// bytes) and its payload, whose length is checked against the limit before
/// any of it is buffered: a hostile length costs nothing.
///
/// What it refuses, each with close code 1002 unless said: a masked frame
/// (servers must not mask), reserved bits (no extension is ever negotiated),
/// an unknown opcode, a fragmented control frame or one over 125 bytes, a
/// 64-bit length with its top bit set, a data frame out of sequence with
/// ``messageInProgress``, and (1009) a data frame that would take its message
/// over ``maximumMessageSize``. After an error the parser is of no further use.
/// Lengths that are not in their shortest encoding are accepted, as RFC 6455 allows.
package struct WebSocketFrameParser: Sendable {
    /// The largest message, in payload bytes: a data frame that would take its message past it is refused.
    package let maximumMessageSize: Int
    /// The fragmented message in progress, if one is: its opcode and the payload bytes it holds. Its owner
    /// (the message assembler's) keeps it current, so that a frame is judged against it from its header:
    /// a continuation with no message, a new message inside one, or a fragment that would take the message
    /// past the limit is refused before its payload is buffered.
    package var messageInProgress: (opcode: WebSocketOpcode, size: Int)?

    /// The header of the frame in progress, up to 14 bytes; its capacity is kept from frame to frame.
    private var header: [UInt8] = []
    /// How many header bytes the frame in progress has: 2, then 4 or 10 once the length's size is known.
    private var headerSize = 2
    /// Whether the header is complete and the payload is being read.
    private var readingPayload = false
    private var payloadLength = 0
    private var payload: [UInt8] = []

    /// A parser refusing messages over `maximumMessageSize` bytes.
    package init(maximumMessageSize: Int) {
        self.maximumMessageSize = maximumMessageSize
        header.reserveCapacity(WebSocketFrame.maximumHeaderSize)
    }

    /// The bytes held for the frame in progress: its header so far and its payload so far.
    package var bufferedByteCount: Int { header.count + payload.count }

    /// The next complete frame from `input`, starting at `offset` and moving it
    /// past what was consumed; `nil` once `input` is used up without completing one.
    /// - Throws: ``WebSocketError`` with its close code, for a frame that must not be accepted.
    package mutating func nextFrame(from input: UnsafeRawBufferPointer, offset: inout Int) throws(WebSocketError) -> WebSocketFrame? {
        if !readingPayload {
            while header.count < headerSize {
                guard offset < input.count else { return nil }
                header.append(input[offset])
                offset += 1
                if header.count == 2 { headerSize = try Self.checkFirstBytes(header[0], header[1]) }
            }
            payloadLength = try lengthFromHeader()
            readingPayload = true
            if payloadLength > 0 { payload.reserveCapacity(payloadLength) }
        }
        let wanted = payloadLength - payload.count
        let available = input.count - offset
        if wanted > 0 && available > 0 {
            let take = min(wanted, available)
            payload.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[offset..<(offset + take)]))
            offset += take
        }
        guard payload.count == payloadLength else { return nil }
        var completed: [UInt8] = []
        swap(&completed, &payload)
        let frame = WebSocketFrame(fin: header[0] & 0x80 != 0, reservedBits: (header[0] >> 4) & 0x7,
                                   opcode: WebSocketOpcode(rawValue: header[0] & 0xF) ?? .binary, payload: completed)
        header.removeAll(keepingCapacity: true)
        headerSize = 2
        readingPayload = false
        payloadLength = 0
        return frame
    }

    /// Checks what the first two bytes decide, before any more is read, and
    /// answers the header's size: 2, 4 (16-bit length) or 10 (64-bit length).
    private static func checkFirstBytes(_ first: UInt8, _ second: UInt8) throws(WebSocketError) -> Int {
        guard let opcode = WebSocketOpcode(rawValue: first & 0xF) else {
            throw .protocolViolation("unknown opcode 0x\(String(first & 0xF, radix: 16, uppercase: true))")
        }
        if first & 0x70 != 0 {
            throw .protocolViolation("reserved bits 0x\(String(first & 0x70, radix: 16, uppercase: true)) set in a \(opcode) frame, with no extension negotiated")
        }
        if second & 0x80 != 0 {
            throw .protocolViolation("a masked \(opcode) frame from the server (servers must not mask)")
        }
        let shortLength = Int(second & 0x7F)
        if opcode.isControl {
            guard first & 0x80 != 0 else { throw .protocolViolation("a fragmented \(opcode) frame (control frames must not be fragmented)") }
            guard shortLength <= WebSocketFrame.maximumControlPayloadSize else {
                throw .protocolViolation("a \(opcode) frame with a payload over 125 bytes")
            }
        }
        switch shortLength {
        case 126: return 4
        case 127: return 10
        default: return 2
        }
    }

    /// The payload length of the complete header, checked against the limits.
    private func lengthFromHeader() throws(WebSocketError) -> Int {
        let shortLength = Int(header[1] & 0x7F)
        let length: Int
        switch shortLength {
        case 126:
            length = Int(header[2]) << 8 | Int(header[3])
        case 127:
            guard header[2] & 0x80 == 0 else { throw .protocolViolation("a 64-bit frame length with its most significant bit set") }
            var value = 0
            for index in 2..<10 { value = value << 8 | Int(header[index]) }
            length = value
        default:
            length = shortLength
        }
        // Control frames are held to 125 bytes by their first two bytes.
        guard let opcode = WebSocketOpcode(rawValue: header[0] & 0xF), !opcode.isControl else { return length }
        let sizeSoFar: Int
        if let inProgress = messageInProgress {
            guard opcode == .continuation else {
                throw .protocolViolation("a new \(opcode) message while a fragmented \(inProgress.opcode) message is in progress")
            }
            sizeSoFar = inProgress.size
        } else {
            guard opcode != .continuation else { throw .protocolViolation("a continuation frame with no message in progress") }
            sizeSoFar = 0
        }
        // Subtracted, not added: a 63-bit length must not overflow.
        guard length <= maximumMessageSize - sizeSoFar else {
            throw .messageTooBig(atLeast: sizeSoFar + min(length, Int.max - sizeSoFar), limit: maximumMessageSize)
        }
        return length
    }
}
