@testable import PriceHostHTTP
import PriceHostFuzzing
import PriceHostTestTraits
import Testing

/// Seeded, bounded fuzzing of the frame parser and the connection state: any
/// bytes, cut anywhere, end in events or one protocol error with a close code
/// that may be sent; nothing is buffered past the caps; and how the bytes are
/// cut changes nothing. See docs/FUZZING.md.
@Suite(.offThePool)
struct WebSocketConnectionStateFuzzTests {
    /// Small, so that the fuzzer reaches the limit.
    static let maximumMessageSize = 4096

    static let corpus: [[UInt8]] = [
        ServerFrames.text("{\"type\":\"ticker\",\"price\":\"67012.50\"}"),
        ServerFrames.text("Hel", fin: false) + ServerFrames.frame(.ping, [1, 2, 3]) + ServerFrames.frame(.continuation, Array("lo €".utf8)),
        ServerFrames.frame(.binary, [UInt8](repeating: 0xAB, count: 300)) + ServerFrames.frame(.pong, [9]),
        ServerFrames.frame(.binary, [1], fin: false) + ServerFrames.frame(.continuation, [UInt8](repeating: 2, count: 4000), fin: false)
            + ServerFrames.frame(.continuation, [3]),
        ServerFrames.text("bye") + ServerFrames.close(1000, "done"),
        ServerFrames.frame(.close),
        ServerFrames.frame(.text, [0xE2, 0x82], fin: false) + ServerFrames.frame(.continuation, [0xAC]),
        [0x82, 127, 0, 0, 0, 0, 0, 0, 0x10, 0x01] + [UInt8](repeating: 7, count: 64),
    ]

    static let tokens: [[UInt8]] = Mutator.commonTokens + [
        [0x81], [0x01], [0x80], [0x82], [0x88], [0x89], [0x8A], [0x00], [0x7E], [0x7F], [0xFE], [0x7E, 0xFF, 0xFF], [0x7E, 0x00, 0x7D],
        [0x7F, 0, 0, 0, 0, 0, 0, 0x10, 0x00], [0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0], [0x88, 0x02, 0x03, 0xED], [0x88, 0x01, 0x03],
        [0x89, 0x80, 1, 2, 3, 4], [0xC1, 0x00], [0x0B, 0x00],
    ]

    /// One input: the bytes, and where they are cut into reads.
    struct Input {
        var bytes: [UInt8]
        var cuts: [Int]
    }

    /// What a run of feeds came to, and the first broken property, if any.
    static func run(_ input: Input, cut: Bool) -> (events: [WebSocketEvent], outgoing: [UInt8], problem: String?) {
        var state = WebSocketConnectionState(maximumMessageSize: maximumMessageSize, random: SeededGenerator(seed: 1))
        let cap = maximumMessageSize + WebSocketFrame.maximumHeaderSize + WebSocketFrame.maximumControlPayloadSize
        var events: [WebSocketEvent] = []
        var outgoing: [UInt8] = []
        var start = 0
        for end in (cut ? input.cuts : []) + [input.bytes.count] where end >= start {
            let output = state.feed(input.bytes[start..<end])
            start = end
            if !events.isEmpty, case .protocolError = events.last, !output.events.isEmpty || !output.outgoing.isEmpty {
                return (events, outgoing, "output after a protocol error")
            }
            events += output.events
            outgoing += output.outgoing
            guard state.bufferedByteCount <= cap else { return (events, outgoing, "\(state.bufferedByteCount) bytes buffered, over \(cap)") }
        }
        return (events, outgoing, nil)
    }

    @Test func fuzzedStreamsEndInEventsOrOneProtocolErrorWithASendableCode() throws {
        let mutator = Mutator(corpus: Self.corpus, tokens: Self.tokens)
        let tally = try FuzzRun().loop("WebSocketConnectionStateFuzzTests/streams", iterations: 3_000) { random, iteration in
            let bytes: [UInt8] = iteration < Self.corpus.count ? Self.corpus[iteration]
                : random.chance(1, in: 8) ? Mutator.randomBytes(using: &random, alphabet: [0x81, 0x82, 0x00, 0x88, 0x89, 0x8A, 0x7E, 0x7F])
                : Array(mutator.mutate(using: &random).prefix(8192))
            let cuts = (0..<random.below(8)).map { _ in random.below(bytes.count + 1) }.sorted()
            return Input(bytes: bytes, cuts: cuts)
        } describe: { input in
            "cut at \(input.cuts), \(FuzzText.describe(input.bytes))"
        } check: { input in
            let whole = Self.run(input, cut: false)
            if let problem = whole.problem { return .problem(problem) }
            let pieces = Self.run(input, cut: true)
            if let problem = pieces.problem { return .problem("cut: \(problem)") }
            guard whole.events == pieces.events, whole.outgoing == pieces.outgoing else {
                return .problem("cut into reads, the bytes gave \(pieces.events.count) event(s), not the \(whole.events.count) of one read")
            }
            // What we write is well-formed client frames: pongs, and at most one close, last.
            guard let sent = ClientFrames.parse(whole.outgoing) else { return .problem("the bytes to send are not masked frames") }
            guard sent.dropLast().allSatisfy({ $0.opcode == .pong }) else { return .problem("a close frame that is not the last one sent") }
            if let close = sent.last, close.opcode == .close, close.payload.count >= 2 {
                let code = WebSocketCloseCode(rawValue: UInt16(close.payload[0]) << 8 | UInt16(close.payload[1]))
                guard code.isAllowedOnWire else { return .problem("a close frame with code \(code)") }
            }
            for (index, event) in whole.events.enumerated() {
                switch event {
                case .protocolError(let error):
                    guard index == whole.events.count - 1 else { return .problem("events after a protocol error") }
                    guard let code = error.closeCode, [WebSocketCloseCode.protocolError, .invalidPayload, .messageTooBig].contains(code) else {
                        return .problem("protocol error without 1002, 1007 or 1009: \(error)")
                    }
                    guard sent.last == WebSocketFrame(opcode: .close, payload: [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)]) else {
                        return .problem("protocol error \(code) not answered by its close frame")
                    }
                    guard !error.description.isEmpty, !error.description.contains("\n") else { return .problem("description not one line") }
                    return .error
                case .closed(let code, _):
                    guard index == whole.events.count - 1 else { return .problem("events after the close") }
                    guard code.isAllowedOnWire || code == .noStatusReceived else { return .problem("closed with code \(code)") }
                case .text(let text):
                    guard text.utf8.count <= Self.maximumMessageSize else { return .problem("a text of \(text.utf8.count) bytes") }
                case .binary(let bytes):
                    guard bytes.count <= Self.maximumMessageSize else { return .problem("a binary message of \(bytes.count) bytes") }
                case .pong(let payload):
                    guard payload.count <= 125 else { return .problem("a pong of \(payload.count) bytes") }
                }
            }
            return .value
        }
        #expect(tally.values > 100 && tally.errors > 100, "\(tally)")
    }
}
