@testable import PriceHostHTTP
import Testing

/// The upgrade request, the accept check, and reading the server's answer however it is cut.
struct WebSocketHandshakeTests {
    static let sampleNonce = Array("the sample nonce".utf8)

    static func handshake(_ url: String = "wss://stream.example.com/ws?pair=BTC-USD", protocols: [String] = []) throws -> WebSocketHandshake {
        try WebSocketHandshake(url: WebSocketURL(url), protocols: protocols, nonce: sampleNonce)
    }

    /// RFC 6455 §1.3's example server answer, with `changes` applied to its header lines.
    static func answer(status: String = "HTTP/1.1 101 Switching Protocols",
                       headers: [String] = ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="]) -> [UInt8] {
        Array(([status] + headers).map { $0 + "\r\n" }.joined().utf8) + Array("\r\n".utf8)
    }

    @Test func theRFCExampleKeyGetsTheRFCExampleAccept() throws {
        #expect(WebSocketHandshake.accept(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        let handshake = try Self.handshake()
        #expect(handshake.key == "dGhlIHNhbXBsZSBub25jZQ==")
        #expect(handshake.expectedAccept == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func theRequestIsAnHTTP11UpgradeWithVersion13AndNoExtensions() throws {
        let handshake = try WebSocketHandshake(url: WebSocketURL("ws://127.0.0.1:8080/feed?x=1"), protocols: ["v1.json", "v2"],
                                               extraHeaders: [.init(name: "Origin", value: "https://pricehost.example")],
                                               nonce: Self.sampleNonce)
        #expect(String(decoding: handshake.request, as: UTF8.self) == """
            GET /feed?x=1 HTTP/1.1\r
            Host: 127.0.0.1:8080\r
            Upgrade: websocket\r
            Connection: Upgrade\r
            Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r
            Sec-WebSocket-Version: 13\r
            Sec-WebSocket-Protocol: v1.json, v2\r
            Origin: https://pricehost.example\r
            \r

            """)
    }

    @Test func keysAre16RandomBytesInBase64AndDifferEachTime() throws {
        var random = CountingGenerator()
        let url = try WebSocketURL("ws://example.com/")
        let first = try WebSocketHandshake(url: url, random: &random)
        let second = try WebSocketHandshake(url: url, random: &random)
        #expect(first.key.count == 24 && first.key.hasSuffix("=="))
        #expect(first.key != second.key)
        let system = try WebSocketHandshake(url: url)
        #expect(system.key.count == 24)
    }

    @Test(arguments: [
        (WebSocketHandshake.Field(name: "Sec-WebSocket-Extensions", value: "permessage-deflate"), "the handshake sets it itself"),
        (.init(name: "host", value: "other.example"), "the handshake sets it itself"),
        (.init(name: "X Bad", value: "1"), "a header name must be an HTTP token"),
        (.init(name: "X-Token", value: "a\r\nX-Evil: 1"), "its value contains a control character"),
    ])
    func headersThatCannotBeSentAreRefused(field: WebSocketHandshake.Field, detail: String) throws {
        #expect(throws: WebSocketError.invalidRequest("header \(WebSocketError.quoted(field.name))", detail)) {
            try WebSocketHandshake(url: WebSocketURL("ws://example.com/"), extraHeaders: [field], nonce: Self.sampleNonce)
        }
    }

    @Test func theRFCExampleAnswerIsAccepted() throws {
        var reader = WebSocketHandshakeReader(handshake: try Self.handshake())
        let progress = try reader.read(Self.answer())
        guard case .upgraded(let upgrade) = progress else {
            Issue.record("not upgraded: \(progress)")
            return
        }
        #expect(upgrade.selectedProtocol == nil)
        #expect(upgrade.remainder.isEmpty)
        #expect(upgrade.head.status == 101)
        #expect(upgrade.head.values(of: "SEC-WEBSOCKET-ACCEPT") == ["s3pPLMBiTxaQ9kYGzzhZRbK+xOo="])
    }

    @Test func headerNamesAndValuesAreCaseInsensitiveAndConnectionMayBeAList() throws {
        let answer = Self.answer(headers: ["upgrade: WebSocket", "connection: keep-alive, upgrade", "sec-websocket-accept:   s3pPLMBiTxaQ9kYGzzhZRbK+xOo=  ",
                                           "Sec-WebSocket-Protocol: v2"])
        var reader = WebSocketHandshakeReader(handshake: try Self.handshake(protocols: ["v1", "v2"]))
        guard case .upgraded(let upgrade) = try reader.read(answer) else {
            Issue.record("not upgraded")
            return
        }
        #expect(upgrade.selectedProtocol == "v2")
    }

    @Test func aHeadSplitAcrossManyReadsWaitsForTheEndAndKeepsTheBytesAfterIt() throws {
        let frames = ServerFrames.text("{\"price\":\"1.5\"}") + ServerFrames.frame(.ping, [1, 2])
        let bytes = Self.answer() + frames
        let headSize = Self.answer().count
        for chunkSize in [1, 2, 3, 7, 64] {
            var reader = WebSocketHandshakeReader(handshake: try Self.handshake())
            var result: WebSocketHandshake.Upgrade?
            var fed = 0
            for start in stride(from: 0, to: bytes.count, by: chunkSize) {
                let chunk = bytes[start..<min(bytes.count, start + chunkSize)]
                fed += chunk.count
                switch try reader.read(chunk) {
                case .needMoreBytes:
                    #expect(fed < headSize, "chunks of \(chunkSize): still waiting after the head's end")
                case .upgraded(let upgrade):
                    result = upgrade
                }
                if result != nil { break }
            }
            // What followed the head in the read that completed it, then what was not fed yet: the frames, intact.
            let rest = (result?.remainder ?? []) + bytes[fed...]
            #expect(rest == frames, "chunks of \(chunkSize)")
        }
    }

    @Test(arguments: [
        (answer(status: "HTTP/1.1 403 Forbidden"), "the server answered 403 \"Forbidden\", not 101 Switching Protocols"),
        (answer(status: "HTTP/1.1 200 OK"), "the server answered 200 \"OK\", not 101 Switching Protocols"),
        (answer(headers: ["Connection: Upgrade", "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="]), "the answer has no Upgrade header"),
        (answer(headers: ["Upgrade: h2c", "Connection: Upgrade", "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="]),
         "Upgrade is \"h2c\", not websocket"),
        (answer(headers: ["Upgrade: websocket", "Connection: keep-alive", "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="]),
         "the answer's Connection header does not include Upgrade"),
        (answer(headers: ["Upgrade: websocket", "Connection: Upgrade"]), "the answer has no Sec-WebSocket-Accept header"),
        (answer(headers: ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Accept: AAAAAAAAAAAAAAAAAAAAAAAAAAA="]),
         "Sec-WebSocket-Accept is \"AAAAAAAAAAAAAAAAAAAAAAAAAAA=\", not s3pPLMBiTxaQ9kYGzzhZRbK+xOo=, the answer to this key"),
        (answer(headers: ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
                          "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="]),
         "the answer has 2 Sec-WebSocket-Accept headers"),
        (answer(headers: ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
                          "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits"]),
         "the server chose extension \"permessage-deflate; client_max_window_bits\", which the client did not offer"),
        (answer(headers: ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
                          "Sec-WebSocket-Protocol: chat"]),
         "the server chose subprotocol \"chat\", which the client did not offer"),
    ])
    func unacceptableAnswersAreRefusedNamingTheHeader(answer: [UInt8], detail: String) throws {
        let handshake = try Self.handshake()
        var reader = WebSocketHandshakeReader(handshake: handshake)
        #expect(throws: WebSocketError.handshakeRefused(handshake.url, detail)) { try reader.read(answer) }
    }

    @Test func theRefusalNamesTheURLOnOneLine() throws {
        let handshake = try Self.handshake()
        var reader = WebSocketHandshakeReader(handshake: handshake)
        let error = #expect(throws: WebSocketError.self) { try reader.read(Self.answer(status: "HTTP/1.1 429 Too\u{1B}Many")) }
        #expect(error?.description == "WebSocket handshake with wss://stream.example.com/ws?pair=BTC-USD refused: the server answered 429 \"Too\\u{1b}Many\", not 101 Switching Protocols")
        #expect(error?.code == .handshakeRefused)
    }

    @Test(arguments: [
        (Array("HTTP/1.0 101 Switching Protocols\r\n\r\n".utf8), "the status line \"HTTP/1.0 101 Switching Protocols\" is not HTTP/1.1"),
        (Array("HTTP/1.1 1O1 Switching\r\n\r\n".utf8), "the status line \"HTTP/1.1 1O1 Switching\" has no three-digit status"),
        (Array("HTTP/1.1 101 OK\r\nUpgrade websocket\r\n\r\n".utf8), "the header line \"Upgrade websocket\" is not name: value"),
        (Array("HTTP/1.1 101 OK\r\n Upgrade: websocket\r\n\r\n".utf8), "the header line \" Upgrade: websocket\" is not name: value"),
        (Array("HTTP/1.1 101 OK\nUpgrade: websocket\r\n\r\n".utf8), "a line ends in LF without CR"),
    ])
    func unreadableHeadsAreMalformed(answer: [UInt8], detail: String) throws {
        let handshake = try Self.handshake()
        var reader = WebSocketHandshakeReader(handshake: handshake)
        #expect(throws: WebSocketError.handshakeMalformed(handshake.url, detail)) { try reader.read(answer) }
    }

    @Test func aHeadOverTheCapIsRefusedWithoutWaitingForItsEnd() throws {
        let handshake = try Self.handshake()
        var reader = WebSocketHandshakeReader(handshake: handshake, maximumHeadSize: 1024)
        let line = Array("X-Filler: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n".utf8)
        #expect(try reader.read(Array("HTTP/1.1 101 Switching Protocols\r\n".utf8)) == .needMoreBytes)
        let refusal = WebSocketError.handshakeMalformed(handshake.url, "the response head is over 1024 bytes without ending")
        var refused = false
        for _ in 0..<100 where !refused {
            do {
                #expect(try reader.read(line) == .needMoreBytes)
                #expect(reader.bufferedByteCount < 1024)
            } catch {
                #expect(error == refusal)
                refused = true
            }
        }
        #expect(refused)
        // The same head under a larger cap is read.
        var roomy = WebSocketHandshakeReader(handshake: handshake)
        let long = Self.answer(headers: ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="]
                                + Array(repeating: String(decoding: line.dropLast(2), as: UTF8.self), count: 100))
        guard case .upgraded = try roomy.read(long) else {
            Issue.record("a 6 KB head under the 16 KiB cap was not read")
            return
        }
    }
}
