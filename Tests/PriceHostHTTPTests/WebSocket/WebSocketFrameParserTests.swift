@testable import PriceHostHTTP
import Testing

/// Frames in and out: every length encoding, masking, and each frame RFC 6455 says to refuse.
struct WebSocketFrameParserTests {
    /// Every frame in `bytes`, or the error that stopped the parser.
    static func parse(_ bytes: [UInt8], limit: Int = 1 << 20) -> (frames: [WebSocketFrame], error: WebSocketError?) {
        var parser = WebSocketFrameParser(maximumMessageSize: limit)
        var frames: [WebSocketFrame] = []
        var offset = 0
        let error: WebSocketError? = bytes.withUnsafeBytes { input in
            do throws(WebSocketError) {
                for _ in 0...bytes.count {
                    guard let frame = try parser.nextFrame(from: input, offset: &offset) else { break }
                    frames.append(frame)
                }
                return nil
            } catch {
                return error
            }
        }
        return (frames, error)
    }

    @Test(arguments: [0, 1, 125, 126, 127, 65535, 65536, 70_000])
    func everyLengthEncodingRoundTrips(length: Int) throws {
        let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let bytes = WebSocketFrame(opcode: .binary, payload: payload).serialized(maskingKey: nil)
        // The shortest encoding: 7 bits to 125, 16 bits to 65535, 64 bits beyond.
        let headerSize = length <= 125 ? 2 : length <= 65535 ? 4 : 10
        #expect(bytes.count == headerSize + length)
        #expect(bytes[1] == (length <= 125 ? UInt8(length) : length <= 65535 ? 126 : 127))
        let (frames, error) = Self.parse(bytes)
        #expect(error == nil)
        #expect(frames == [WebSocketFrame(opcode: .binary, payload: payload)])
    }

    @Test func nonMinimalLengthEncodingsAreAccepted() {
        // 5 bytes announced in 16 bits, then in 64 bits.
        let sixteen: [UInt8] = [0x82, 126, 0, 5, 1, 2, 3, 4, 5]
        let sixtyFour: [UInt8] = [0x82, 127, 0, 0, 0, 0, 0, 0, 0, 5, 1, 2, 3, 4, 5]
        for bytes in [sixteen, sixtyFour] {
            #expect(Self.parse(bytes).frames == [WebSocketFrame(opcode: .binary, payload: [1, 2, 3, 4, 5])])
        }
    }

    @Test(arguments: [0, 3, 125, 126, 65536])
    func maskedFramesUnmaskToThePayload(length: Int) throws {
        let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        let frame = WebSocketFrame(opcode: .text, payload: payload)
        let masked = frame.serialized(maskingKey: 0x37FA_213D)
        #expect(masked[1] & 0x80 != 0)
        #expect(try #require(ClientFrames.parse(masked)) == [frame])
        if length >= 4 {
            let keyOffset = length <= 125 ? 2 : length <= 65535 ? 4 : 10
            #expect(Array(masked[keyOffset..<(keyOffset + 4)]) == [0x37, 0xFA, 0x21, 0x3D])
            #expect(Array(masked[(keyOffset + 4)...]) != payload)
        }
    }

    @Test func rfcMaskingExampleMatches() {
        // RFC 6455 §5.7: a masked "Hello".
        let bytes = WebSocketFrame(opcode: .text, payload: Array("Hello".utf8)).serialized(maskingKey: 0x37FA_213D)
        #expect(bytes == [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
    }

    @Test(arguments: [
        // RFC 6455 §5.7's client frame, which a server's parser would read: from a server it is refused.
        ([0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58], "a masked text frame from the server (servers must not mask)"),
        ([0xC1, 0x01, 0x41], "reserved bits 0x40 set in a text frame, with no extension negotiated"),
        ([0x92, 0x00], "reserved bits 0x10 set in a binary frame, with no extension negotiated"),
        ([0x83, 0x00], "unknown opcode 0x3"),
        ([0x8B, 0x00], "unknown opcode 0xB"),
        ([0x8F, 0x00], "unknown opcode 0xF"),
        ([0x09, 0x00], "a fragmented ping frame (control frames must not be fragmented)"),
        ([0x08, 0x00], "a fragmented close frame (control frames must not be fragmented)"),
        ([0x89, 126, 0, 126] + [UInt8](repeating: 0, count: 126), "a ping frame with a payload over 125 bytes"),
        ([0x8A, 127, 0, 0, 0, 0, 0, 0, 0, 0], "a pong frame with a payload over 125 bytes"),
        ([0x82, 127, 0x80, 0, 0, 0, 0, 0, 0, 1], "a 64-bit frame length with its most significant bit set"),
    ] as [([UInt8], String)])
    func framesTheRFCForbidsAreProtocolErrors(bytes: [UInt8], detail: String) {
        let error = Self.parse(bytes).error
        #expect(error == .protocolViolation(detail))
        #expect(error?.closeCode == .protocolError)
    }

    @Test func anOversizedFrameIsRefusedFromItsHeaderBeforeAnyPayloadIsBuffered() {
        // The header announces 2 MiB; none of the payload has arrived.
        var parser = WebSocketFrameParser(maximumMessageSize: 1 << 20)
        let header: [UInt8] = [0x82, 127, 0, 0, 0, 0, 0, 0x20, 0, 0]
        var offset = 0
        #expect(throws: WebSocketError.messageTooBig(atLeast: 2 << 20, limit: 1 << 20)) {
            try header.withUnsafeBytes { try parser.nextFrame(from: $0, offset: &offset) }
        }
        #expect(parser.bufferedByteCount <= WebSocketFrame.maximumHeaderSize)
        // The largest length there is: refused, not overflowed.
        let huge: [UInt8] = [0x82, 127, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(Self.parse(huge).error?.closeCode == .messageTooBig)
        // Exactly at the limit is accepted.
        let atLimit = WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 1, count: 1000)).serialized(maskingKey: nil)
        #expect(Self.parse(atLimit, limit: 1000).frames.count == 1)
        #expect(Self.parse(atLimit, limit: 999).error == .messageTooBig(atLeast: 1000, limit: 999))
    }

    @Test func dataFramesAreJudgedAgainstTheMessageInProgressFromTheirHeader() {
        func parse(_ frame: WebSocketFrame, inProgress: (opcode: WebSocketOpcode, size: Int)?) -> WebSocketError? {
            var parser = WebSocketFrameParser(maximumMessageSize: 100)
            parser.messageInProgress = inProgress
            // The header alone: each refusal comes before any payload.
            let header = Array(frame.serialized(maskingKey: nil).prefix(2))
            var offset = 0
            do {
                _ = try header.withUnsafeBytes { try parser.nextFrame(from: $0, offset: &offset) }
                return nil
            } catch {
                return error as? WebSocketError
            }
        }
        let eleven = [UInt8](repeating: 0, count: 11)
        #expect(parse(WebSocketFrame(opcode: .continuation, payload: eleven), inProgress: (.text, 90)) == .messageTooBig(atLeast: 101, limit: 100))
        #expect(parse(WebSocketFrame(opcode: .continuation, payload: eleven), inProgress: (.text, 89)) == nil)
        #expect(parse(WebSocketFrame(opcode: .continuation, payload: eleven), inProgress: nil)
                == .protocolViolation("a continuation frame with no message in progress"))
        #expect(parse(WebSocketFrame(opcode: .binary, payload: eleven), inProgress: (.text, 0))
                == .protocolViolation("a new binary message while a fragmented text message is in progress"))
        // Control frames may come between fragments, whatever the message holds.
        #expect(parse(WebSocketFrame(opcode: .ping, payload: eleven), inProgress: (.text, 100)) == nil)
    }

    @Test func framesCutAnywhereComeOutTheSame() throws {
        let stream = ServerFrames.text("héllo") + ServerFrames.frame(.ping, [9]) + ServerFrames.frame(.binary, [UInt8](repeating: 5, count: 300))
            + ServerFrames.frame(.close, [3, 232])
        let whole = Self.parse(stream).frames
        #expect(whole.count == 4)
        for cut in 0...stream.count {
            var parser = WebSocketFrameParser(maximumMessageSize: 1 << 20)
            var frames: [WebSocketFrame] = []
            for part in [Array(stream[..<cut]), Array(stream[cut...])] {
                var offset = 0
                try part.withUnsafeBytes { input in
                    for _ in 0...part.count {
                        guard let frame = try parser.nextFrame(from: input, offset: &offset) else { break }
                        frames.append(frame)
                    }
                }
                #expect(offset == part.count)
            }
            #expect(frames == whole, "cut at \(cut)")
        }
    }
}
