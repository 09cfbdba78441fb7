@testable import PriceHostHTTP
import Testing

/// Messages, fragments, pings, the close handshake and each error's close frame, as the client sees them.
struct WebSocketConnectionStateTests {
    /// The client frames an output's bytes hold.
    static func sent(_ output: WebSocketConnectionState.Output) throws -> [WebSocketFrame] {
        try #require(ClientFrames.parse(output.outgoing))
    }

    static func closeFrame(_ code: WebSocketCloseCode) -> WebSocketFrame {
        WebSocketFrame(opcode: .close, payload: [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)])
    }

    @Test func singleFrameMessagesAreDelivered() {
        var state = WebSocketConnectionState.testing()
        let output = state.feed(ServerFrames.text("{\"p\":\"67012.5\"}") + ServerFrames.frame(.binary, [0, 255]) + ServerFrames.text(""))
        #expect(output.events == [.text("{\"p\":\"67012.5\"}"), .binary([0, 255]), .text("")])
        #expect(output.outgoing.isEmpty)
        #expect(state.phase == .open)
    }

    @Test func fragmentsAreReassembledAroundAPingWhichIsAnsweredWithItsPayload() throws {
        var state = WebSocketConnectionState.testing()
        let bytes = ServerFrames.text("Hel", fin: false) + ServerFrames.frame(.ping, [1, 2, 3])
            + ServerFrames.frame(.continuation, Array("lo, ".utf8), fin: false) + ServerFrames.frame(.pong, [7])
            + ServerFrames.frame(.continuation, Array("wörld".utf8))
        let output = state.feed(bytes)
        #expect(output.events == [.pong([7]), .text("Hello, wörld")])
        #expect(try Self.sent(output) == [WebSocketFrame(opcode: .pong, payload: [1, 2, 3])])
        #expect(state.bufferedByteCount == 0)
    }

    @Test func binaryFragmentsAreReassembled() {
        var state = WebSocketConnectionState.testing()
        let output = state.feed(ServerFrames.frame(.binary, [1], fin: false) + ServerFrames.frame(.continuation, [2], fin: false)
                                + ServerFrames.frame(.continuation, [3]))
        #expect(output.events == [.binary([1, 2, 3])])
    }

    @Test func aPingIsAnsweredWithAPongOfTheSamePayload() throws {
        var state = WebSocketConnectionState.testing()
        let payload = (0..<125).map { UInt8($0) }
        let output = state.feed(ServerFrames.frame(.ping, payload) + ServerFrames.frame(.ping))
        #expect(output.events.isEmpty)
        #expect(try Self.sent(output) == [WebSocketFrame(opcode: .pong, payload: payload), WebSocketFrame(opcode: .pong)])
    }

    @Test func aFloodOfPingsEndsTheConnectionWith1008AfterTheLimit() throws {
        var state = WebSocketConnectionState.testing()
        let limit = WebSocketConnectionState.maximumPingsPerSecond
        let allowed = state.feed((0..<limit).flatMap { _ in ServerFrames.frame(.ping) })
        #expect(allowed.events.isEmpty)
        #expect(try Self.sent(allowed).count == limit)
        let flood = state.feed(ServerFrames.frame(.ping))
        #expect(flood.events == [.protocolError(.pingFlood(limit: limit))])
        #expect(try Self.sent(flood) == [WebSocketFrame(opcode: .close, payload: [0x03, 0xF0])])
    }

    @Test(arguments: [
        (ServerFrames.frame(.continuation, [1]), WebSocketError.protocolViolation("a continuation frame with no message in progress")),
        (ServerFrames.text("a", fin: false) + ServerFrames.text("b"),
         .protocolViolation("a new text message while a fragmented text message is in progress")),
        (ServerFrames.frame(.binary, [1], fin: false) + ServerFrames.text("b", fin: false),
         .protocolViolation("a new text message while a fragmented binary message is in progress")),
        (ServerFrames.text("ok") + [0xC1, 0x00], .protocolViolation("reserved bits 0x40 set in a text frame, with no extension negotiated")),
        (ServerFrames.frame(.close, [3]), .protocolViolation("a close frame with a 1-byte payload (a code takes 2)")),
    ] as [([UInt8], WebSocketError)])
    func protocolErrorsAreAnsweredWithTheirCloseFrameAndEndReading(bytes: [UInt8], error: WebSocketError) throws {
        var state = WebSocketConnectionState.testing()
        let output = state.feed(bytes)
        #expect(output.events.last == .protocolError(error))
        #expect(try Self.sent(output).last == Self.closeFrame(.protocolError))
        #expect(state.phase == .failed)
        // Nothing more is read, nor answered.
        #expect(state.feed(ServerFrames.text("late") + ServerFrames.frame(.ping)) == .init())
    }

    @Test func eventsBeforeAnErrorAreStillDelivered() {
        var state = WebSocketConnectionState.testing()
        let output = state.feed(ServerFrames.text("first") + [0x83, 0x00])
        #expect(output.events == [.text("first"), .protocolError(.protocolViolation("unknown opcode 0x3"))])
    }

    @Test func anOversizedMessageIsClosedWith1009BeforeItsPayloadIsBuffered() throws {
        var state = WebSocketConnectionState.testing(maximumMessageSize: 1000)
        // Fragments within the limit, then one that would take the message past it: refused from its header alone.
        let header: [UInt8] = [0x00, 126, 0x01, 0xF4]  // a 500-byte continuation
        let output = state.feed(ServerFrames.frame(.binary, [UInt8](repeating: 1, count: 600), fin: false) + header)
        #expect(output.events == [.protocolError(.messageTooBig(atLeast: 1100, limit: 1000))])
        #expect(try Self.sent(output) == [Self.closeFrame(.messageTooBig)])
        #expect(state.bufferedByteCount <= 1000 + WebSocketFrame.maximumHeaderSize)

        var single = WebSocketConnectionState.testing(maximumMessageSize: 1000)
        let big = single.feed([0x81, 127, 0, 0, 0, 1, 0, 0, 0, 0])
        #expect(big.events == [.protocolError(.messageTooBig(atLeast: 1 << 32, limit: 1000))])
        #expect(single.bufferedByteCount <= WebSocketFrame.maximumHeaderSize)
    }

    @Test(arguments: [
        [0xC0, 0x80],  // overlong NUL
        [0xE0, 0x80, 0xAF],  // overlong '/'
        [0xED, 0xA0, 0x80],  // a surrogate
        [0xF4, 0x90, 0x80, 0x80],  // past U+10FFFF
        [0xF5, 0x80, 0x80, 0x80],
        [0x80],  // a lone continuation byte
        [0x61, 0xE2, 0x82],  // truncated at the end
        [0xFF],
    ] as [[UInt8]])
    func invalidUTF8IsClosedWith1007(bytes: [UInt8]) throws {
        var state = WebSocketConnectionState.testing()
        let output = state.feed(ServerFrames.frame(.text, bytes))
        #expect(output.events == [.protocolError(.invalidUTF8(in: "a text message"))])
        #expect(try Self.sent(output) == [Self.closeFrame(.invalidPayload)])
    }

    @Test func aCharacterSplitAcrossFragmentsIsValidAndABadFragmentFailsBeforeTheMessageEnds() {
        // "€" is E2 82 AC: split after its first byte, then after its second.
        var state = WebSocketConnectionState.testing()
        let split = state.feed(ServerFrames.frame(.text, [0x41, 0xE2], fin: false) + ServerFrames.frame(.continuation, [0x82], fin: false)
                               + ServerFrames.frame(.continuation, [0xAC, 0x42]))
        #expect(split.events == [.text("A€B")])

        // A surrogate begun in one fragment and refused in the next, with the message still open.
        var failing = WebSocketConnectionState.testing()
        let bad = failing.feed(ServerFrames.frame(.text, [0x41, 0xED], fin: false) + ServerFrames.frame(.continuation, [0xA0], fin: false))
        #expect(bad.events == [.protocolError(.invalidUTF8(in: "a text message"))])

        // A message that ends mid-character.
        var truncated = WebSocketConnectionState.testing()
        let cut = truncated.feed(ServerFrames.frame(.text, [0x41, 0xE2], fin: false) + ServerFrames.frame(.continuation, [0x82]))
        #expect(cut.events == [.protocolError(.invalidUTF8(in: "a text message"))])
    }

    @Test func binaryMessagesAreNotCheckedForUTF8() {
        var state = WebSocketConnectionState.testing()
        #expect(state.feed(ServerFrames.frame(.binary, [0xFF, 0xC0, 0x80])).events == [.binary([0xFF, 0xC0, 0x80])])
    }

    @Test(arguments: [1000, 1001, 1003, 1007, 1011, 1012, 1014, 3000, 4999] as [UInt16])
    func theServersCloseIsEchoedWithItsCode(code: UInt16) throws {
        var state = WebSocketConnectionState.testing()
        let output = state.feed(ServerFrames.close(code, "bye ✓") + ServerFrames.text("after close"))
        #expect(output.events == [.closed(code: WebSocketCloseCode(rawValue: code), reason: "bye ✓")])
        #expect(try Self.sent(output) == [Self.closeFrame(WebSocketCloseCode(rawValue: code))])
        #expect(state.phase == .closed)
        #expect(throws: WebSocketError.self) { try state.makeTextFrame("too late") }
    }

    @Test func aCloseWithoutPayloadIsReportedAs1005AndAnsweredWithoutACode() throws {
        var state = WebSocketConnectionState.testing()
        let output = state.feed(ServerFrames.frame(.close))
        #expect(output.events == [.closed(code: .noStatusReceived, reason: "")])
        #expect(try Self.sent(output) == [WebSocketFrame(opcode: .close)])
    }

    @Test(arguments: [0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000, 65535] as [UInt16])
    func closeCodesThatMayNotBeSentAreProtocolErrors(code: UInt16) throws {
        var state = WebSocketConnectionState.testing()
        let output = state.feed(ServerFrames.close(code))
        #expect(output.events == [.protocolError(.protocolViolation("a close frame with code \(code), which may not be sent"))])
        #expect(try Self.sent(output) == [Self.closeFrame(.protocolError)])
    }

    @Test func aCloseReasonThatIsNotUTF8Is1007() throws {
        var state = WebSocketConnectionState.testing()
        let output = state.feed(ServerFrames.frame(.close, [0x03, 0xE8, 0xED, 0xA0, 0x80]))
        #expect(output.events == [.protocolError(.invalidUTF8(in: "the close reason"))])
        #expect(try Self.sent(output) == [Self.closeFrame(.invalidPayload)])
    }

    @Test func aCloseWeStartIsNotEchoedAndTheServersDataIsDroppedUntilItsClose() throws {
        var state = WebSocketConnectionState.testing()
        let close = try state.startClose(code: .goingAway, reason: "shutting down")
        #expect(ClientFrames.parse(close) == [WebSocketFrame(opcode: .close, payload: [0x03, 0xE9] + Array("shutting down".utf8))])
        #expect(state.phase == .closeSent)
        #expect(throws: WebSocketError.self) { try state.makePingFrame() }
        let output = state.feed(ServerFrames.text("in flight") + ServerFrames.frame(.ping, [1]) + ServerFrames.close(1001))
        #expect(output.events == [.closed(code: .goingAway, reason: "")])
        #expect(output.outgoing.isEmpty)
        #expect(state.phase == .closed)
    }

    @Test func aCloseReasonIsCutOnACharacterBoundaryToFitAControlFrame() throws {
        var state = WebSocketConnectionState.testing()
        let close = try state.startClose(reason: String(repeating: "é", count: 100))
        let frame = try #require(ClientFrames.parse(close)?.first)
        #expect(frame.payload.count == 124)  // 2 + 61 two-byte characters
        #expect(WebSocketUTF8Validator.isValid(Array(frame.payload.dropFirst(2))))
    }

    @Test func clientFramesAreMaskedWithAFreshKeyEach() throws {
        var state = WebSocketConnectionState.testing()
        let first = try state.makeTextFrame("{\"type\":\"subscribe\"}")
        let second = try state.makeTextFrame("{\"type\":\"subscribe\"}")
        #expect(first != second)
        #expect(ClientFrames.parse(first + second) == Array(repeating: WebSocketFrame(opcode: .text, payload: Array("{\"type\":\"subscribe\"}".utf8)), count: 2))
        #expect(ClientFrames.parse(try state.makeBinaryFrame([1, 2])) == [WebSocketFrame(opcode: .binary, payload: [1, 2])])
        #expect(ClientFrames.parse(try state.makePingFrame([9])) == [WebSocketFrame(opcode: .ping, payload: [9])])
    }

    @Test func feedingByteAtATimeGivesTheSameEventsAndBytesAsOneFeed() {
        let stream = ServerFrames.text("{\"a\":1}") + ServerFrames.frame(.ping, [1, 2]) + ServerFrames.text("frag", fin: false)
            + ServerFrames.frame(.pong, [3]) + ServerFrames.frame(.continuation, Array("ment €".utf8))
            + ServerFrames.frame(.binary, [UInt8](repeating: 0xAB, count: 70_000)) + ServerFrames.close(1000, "done")
        var whole = WebSocketConnectionState.testing()
        let expected = whole.feed(stream)
        #expect(expected.events.count == 5)
        var bytewise = WebSocketConnectionState.testing()
        var combined = WebSocketConnectionState.Output()
        for byte in stream {
            let output = bytewise.feed([byte])
            combined.events += output.events
            combined.outgoing += output.outgoing
        }
        #expect(combined == expected)
    }
}
