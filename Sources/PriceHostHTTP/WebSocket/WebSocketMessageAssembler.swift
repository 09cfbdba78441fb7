/// Puts data frames back together into messages (RFC 6455 §5.4), enforcing
/// the message size limit and UTF-8 for text.
///
/// It takes data frames only (text, binary, continuation); control frames may
/// arrive between fragments and are the connection's business. A continuation
/// with no message in progress, or a new message before the last one ended,
/// is a protocol error (1002); text that is not UTF-8 is refused (1007) as soon
/// as a fragment shows it; a message over the limit is refused (1009).
package struct WebSocketMessageAssembler: Sendable {
    /// A complete message.
    package enum Message: Equatable, Sendable {
        /// A text message, validated as UTF-8.
        case text(String)
        /// A binary message.
        case binary([UInt8])
    }

    /// The largest message, in payload bytes.
    package let maximumMessageSize: Int
    /// The opcode of the fragmented message in progress, if one is.
    private var inProgress: WebSocketOpcode?
    private var buffer: [UInt8] = []
    private var validator = WebSocketUTF8Validator()

    /// An assembler refusing messages over `maximumMessageSize` bytes.
    package init(maximumMessageSize: Int) {
        self.maximumMessageSize = maximumMessageSize
    }

    /// The payload bytes held for the fragmented message in progress.
    package var bufferedByteCount: Int { buffer.count }

    /// The fragmented message in progress, if one is: its opcode and size, as the frame parser wants them.
    package var messageInProgress: (opcode: WebSocketOpcode, size: Int)? {
        inProgress.map { ($0, buffer.count) }
    }

    /// Adds a data frame; answers the message it completes, if it does.
    /// - Throws: ``WebSocketError`` with close code 1002, 1007 or 1009.
    package mutating func add(_ frame: WebSocketFrame) throws(WebSocketError) -> Message? {
        switch frame.opcode {
        case .text, .binary:
            if let inProgress {
                throw .protocolViolation("a new \(frame.opcode) message while a fragmented \(inProgress) message is in progress")
            }
            guard frame.payload.count <= maximumMessageSize else {
                throw .messageTooBig(atLeast: frame.payload.count, limit: maximumMessageSize)
            }
            if frame.fin {
                // The common case: one frame, one message, no copy into the buffer.
                return try Self.message(frame.opcode, frame.payload)
            }
            inProgress = frame.opcode
            buffer = frame.payload
            validator = WebSocketUTF8Validator()
            if frame.opcode == .text { try validateFragment(frame.payload) }
            return nil
        case .continuation:
            guard let opcode = inProgress else { throw .protocolViolation("a continuation frame with no message in progress") }
            guard frame.payload.count <= maximumMessageSize - buffer.count else {
                throw .messageTooBig(atLeast: buffer.count + frame.payload.count, limit: maximumMessageSize)
            }
            buffer.append(contentsOf: frame.payload)
            if opcode == .text { try validateFragment(frame.payload) }
            guard frame.fin else { return nil }
            inProgress = nil
            var completed: [UInt8] = []
            swap(&completed, &buffer)
            if opcode == .text {
                guard validator.isAtCharacterBoundary else { throw .invalidUTF8(in: "a text message") }
                return .text(String(decoding: completed, as: UTF8.self))
            }
            return .binary(completed)
        case .close, .ping, .pong:
            throw .protocolViolation("a \(frame.opcode) frame given to the message assembler")
        }
    }

    private mutating func validateFragment(_ bytes: [UInt8]) throws(WebSocketError) {
        let valid = bytes.withUnsafeBytes { validator.validate($0) }
        guard valid else { throw .invalidUTF8(in: "a text message") }
    }

    /// The message one final frame makes.
    private static func message(_ opcode: WebSocketOpcode, _ payload: [UInt8]) throws(WebSocketError) -> Message {
        guard opcode == .text else { return .binary(payload) }
        guard WebSocketUTF8Validator.isValid(payload) else { throw .invalidUTF8(in: "a text message") }
        return .text(String(decoding: payload, as: UTF8.self))
    }
}
