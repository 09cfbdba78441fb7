@testable import PriceHostHTTP
import Testing

/// `ws://` and `wss://` URLs taken apart for the handshake, and what is refused.
struct WebSocketURLTests {
    @Test(arguments: [
        ("ws://example.com", false, "example.com", 80, "/", "example.com", "http://example.com/"),
        ("wss://Stream.Example.com/ws/btcusdt@trade", true, "stream.example.com", 443, "/ws/btcusdt@trade", "stream.example.com",
         "https://stream.example.com/ws/btcusdt@trade"),
        ("wss://example.com:9443/v1?pairs=BTC-USD&x=1", true, "example.com", 9443, "/v1?pairs=BTC-USD&x=1", "example.com:9443",
         "https://example.com:9443/v1?pairs=BTC-USD&x=1"),
        ("WS://127.0.0.1:8080?x", false, "127.0.0.1", 8080, "/?x", "127.0.0.1:8080", "http://127.0.0.1:8080/?x"),
        ("ws://[::1]:9000/a", false, "[::1]", 9000, "/a", "[::1]:9000", "http://[::1]:9000/a"),
        ("wss://example.com:443/", true, "example.com", 443, "/", "example.com", "https://example.com/"),
    ])
    func urlsAreTakenApart(text: String, isSecure: Bool, host: String, port: Int, target: String, hostHeader: String, httpURL: String) throws {
        let url = try WebSocketURL(text)
        #expect(url.isSecure == isSecure)
        #expect(url.host == host)
        #expect(url.port == port)
        #expect(url.requestTarget == target)
        #expect(url.hostHeader == hostHeader)
        #expect(url.httpURL == httpURL)
    }

    @Test(arguments: [
        ("https://example.com/", "the scheme is not ws:// or wss://"),
        ("ws://example.com/#frag", "it has a fragment, which a WebSocket URL must not"),
        ("ws://user:pw@example.com/", "it has user info, which the client does not send"),
        ("ws:///path", "it has no host"),
        ("ws://example.com:0/", "the port \"0\" is not a number from 1 to 65535"),
        ("ws://example.com:99999/", "the port \"99999\" is not a number from 1 to 65535"),
        ("ws://example.com:+80/", "the port \"+80\" is not a number from 1 to 65535"),
        ("ws://[::1/", "the IPv6 address has no closing bracket"),
        ("ws://example.com/a\r\nX-Evil: 1", "it contains a space or a control character"),
        ("ws://example.com/a b", "it contains a space or a control character"),
    ])
    func unusableURLsAreRefusedWithTheReason(text: String, detail: String) {
        #expect(throws: WebSocketError.invalidRequest("URL \(WebSocketError.quoted(text))", detail)) { try WebSocketURL(text) }
    }
}
