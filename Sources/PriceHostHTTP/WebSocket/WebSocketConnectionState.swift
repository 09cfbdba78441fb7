/// The client side of an open WebSocket connection (RFC 6455 §5-7), without
/// the transport: bytes from the server go in, events and bytes to send come out.
///
/// The transport reads from the connection, calls ``feed(_:)``, writes
/// ``Output/outgoing`` (pongs, close replies) and acts on the events. Frames of
/// its own come from ``makeTextFrame(_:)``, ``makePingFrame(_:)`` and
/// ``startClose(code:reason:)``, masked with keys from the random source.
///
/// Once a close frame has been received, or a protocol error found, nothing
/// more is read: ``feed(_:)`` answers no events. After ``startClose(code:reason:)``
/// the server's data frames are dropped until its close arrives.
///
/// A value type, owned by one connection; not shared between threads.
package struct WebSocketConnectionState: Sendable {
    /// Where the connection is in its life.
    package enum Phase: Equatable, Sendable {
        /// Messages flow both ways.
        case open
        /// We sent a close frame and wait for the server's.
        case closeSent
        /// The close handshake is over (either side started it): close the connection.
        case closed
        /// A protocol error was found and answered with a close frame: drop the connection.
        case failed
    }

    /// What one ``feed(_:)`` produced.
    package struct Output: Equatable, Sendable {
        /// What happened, in order.
        package var events: [WebSocketEvent] = []
        /// Bytes to write to the server, in order: pongs and close frames, masked.
        package var outgoing: [UInt8] = []

        /// Nothing yet.
        package init() {}
    }

    /// The default limit on a message: 1 MiB.
    package static let defaultMaximumMessageSize = 1 << 20

    /// Where the connection is in its life.
    package internal(set) var phase = Phase.open
    /// The largest message accepted, in payload bytes.
    package var maximumMessageSize: Int { assembler.maximumMessageSize }

    var parser: WebSocketFrameParser
    /// The pings of the current second: a server that sends more than ``maximumPingsPerSecond`` is flooding.
    var pingWindow: (start: ContinuousClock.Instant, count: Int)?
    /// More pings than this in one second end the connection with 1008: answering each would let a server make us write without bound.
    package static let maximumPingsPerSecond = 50
    var assembler: WebSocketMessageAssembler
    /// Where masking keys come from: the system's generator, or a seeded one in tests.
    var random: any RandomNumberGenerator & Sendable

    /// A connection that refuses messages over `maximumMessageSize` bytes and masks with keys from `random`.
    package init(maximumMessageSize: Int = Self.defaultMaximumMessageSize,
                 random: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()) {
        parser = WebSocketFrameParser(maximumMessageSize: maximumMessageSize)
        assembler = WebSocketMessageAssembler(maximumMessageSize: maximumMessageSize)
        self.random = random
    }

    /// The bytes held for what is not complete yet: a frame's header and payload,
    /// and a fragmented message. Never more than the message limit plus a header and a control
    /// frame's 125 bytes: each frame is checked against what its message holds before it is buffered.
    package var bufferedByteCount: Int { parser.bufferedByteCount + assembler.bufferedByteCount }

    /// Reads `bytes` from the server.
    package mutating func feed<Bytes: Collection>(_ bytes: Bytes) -> Output where Bytes.Element == UInt8 {
        if let output = bytes.withContiguousStorageIfAvailable({ feed(UnsafeRawBufferPointer($0)) }) { return output }
        return Array(bytes).withUnsafeBytes { feed($0) }
    }

    /// Reads `bytes` from the server: the events they complete, and what to write back.
    package mutating func feed(_ bytes: UnsafeRawBufferPointer) -> Output {
        var output = Output()
        var offset = 0
        while phase == .open || phase == .closeSent {
            do {
                guard let frame = try parser.nextFrame(from: bytes, offset: &offset) else { break }
                try handle(frame, into: &output)
            } catch {
                fail(error, into: &output)
            }
        }
        return output
    }

    private mutating func handle(_ frame: WebSocketFrame, into output: inout Output) throws(WebSocketError) {
        switch frame.opcode {
        case .text, .binary, .continuation:
            let message = try assembler.add(frame)
            parser.messageInProgress = assembler.messageInProgress
            // After our close, the server's data is of no use: RFC 6455 §1.4 lets it arrive, and we drop it.
            guard phase == .open, let message else { return }
            switch message {
            case .text(let text): output.events.append(.text(text))
            case .binary(let bytes): output.events.append(.binary(bytes))
            }
        case .ping:
            guard phase == .open else { return }
            try countPing()
            append(WebSocketFrame(opcode: .pong, payload: frame.payload), to: &output.outgoing)
        case .pong:
            guard phase == .open else { return }
            output.events.append(.pong(frame.payload))
        case .close:
            let (code, reason) = try Self.closeCodeAndReason(frame.payload)
            if phase == .open {
                // Echo the code (RFC 6455 §5.5.1); a close without one is answered without one.
                let reply = code == .noStatusReceived ? [] : [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)]
                append(WebSocketFrame(opcode: .close, payload: reply), to: &output.outgoing)
            }
            phase = .closed
            output.events.append(.closed(code: code, reason: reason))
        }
    }

    /// Counts a ping in its second; past the limit, the server is flooding.
    private mutating func countPing() throws(WebSocketError) {
        let now = ContinuousClock.now
        if let window = pingWindow, now - window.start < .seconds(1) {
            pingWindow = (window.start, window.count + 1)
        } else {
            pingWindow = (now, 1)
        }
        if let window = pingWindow, window.count > Self.maximumPingsPerSecond {
            throw .pingFlood(limit: Self.maximumPingsPerSecond)
        }
    }

    /// Answers `error` with its close frame (unless ours is sent already) and stops reading.
    private mutating func fail(_ error: WebSocketError, into output: inout Output) {
        if phase == .open {
            let code = error.closeCode ?? .protocolError
            append(WebSocketFrame(opcode: .close, payload: [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)]), to: &output.outgoing)
        }
        phase = .failed
        output.events.append(.protocolError(error))
    }

    /// A close frame's code and reason (RFC 6455 §5.5.1, §7.4): 1005 when it has neither.
    static func closeCodeAndReason(_ payload: [UInt8]) throws(WebSocketError) -> (WebSocketCloseCode, String) {
        guard !payload.isEmpty else { return (.noStatusReceived, "") }
        guard payload.count >= 2 else { throw .protocolViolation("a close frame with a 1-byte payload (a code takes 2)") }
        let code = WebSocketCloseCode(rawValue: UInt16(payload[0]) << 8 | UInt16(payload[1]))
        guard code.isAllowedOnWire else { throw .protocolViolation("a close frame with code \(code), which may not be sent") }
        let reason = Array(payload[2...])
        guard WebSocketUTF8Validator.isValid(reason) else { throw .invalidUTF8(in: "the close reason") }
        return (code, String(decoding: reason, as: UTF8.self))
    }

    /// Serializes `frame` masked with a fresh key.
    mutating func append(_ frame: WebSocketFrame, to output: inout [UInt8]) {
        frame.serialize(into: &output, maskingKey: UInt32(truncatingIfNeeded: random.next()))
    }
}
