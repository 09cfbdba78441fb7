import ConcurrencyHelpers
import Glibc
import PriceHostCore

/// A client WebSocket connection (RFC 6455) over libcurl: `ws://` and `wss://`,
/// with libcurl's DNS, proxies and TLS (the system's CAs, or ``WebSocketOptions/caFile``).
///
/// libcurl opens the connection (`CURLOPT_CONNECT_ONLY`, HTTP/1.1, no ALPN) and
/// the protocol runs over `curl_easy_send`/`curl_easy_recv` (``CurlStream``), the
/// frames in ``WebSocketConnectionState``. That works on every libcurl from 7.68,
/// Debian 12's 7.88 among them, which has no WebSocket of its own.
///
/// Threads: each connection has a thread of its own (``DetachedThread``) that
/// opens it, does the handshake, and then alone reads and writes: the libcurl
/// handle never leaves it. ``send(text:)``, ``ping(_:)`` and ``close(code:reason:)``
/// queue frames under a pthread `Lock` and wake that thread through a pipe; none
/// of them blocks a thread of Swift concurrency.
///
/// What the server sends arrives in ``events``: messages, pongs, and at the end
/// `.closed` (its close frame, or 1006 with the reason when the connection broke
/// or timed out) or `.protocolError` (the server broke the protocol: a message over
/// ``WebSocketOptions/maxMessageBytes`` is 1009, text that is not UTF-8 1007, the
/// rest 1002; the close frame with that code has been sent). The stream then finishes.
/// A connection opened with a ``WebSocketEventHandler`` hands the same events to it
/// instead, on its own thread, with no hop to a task per message.
/// Pings are answered with pongs by the connection itself.
///
/// Releasing the connection without ``close(code:reason:)`` closes it with 1001 (going away).
package final class WebSocketConnection: Sendable {
    /// Where the connection goes.
    package let url: WebSocketURL
    /// The subprotocol the server chose from ``WebSocketOptions/protocols``, if any.
    package let selectedProtocol: String?
    /// What the server sent, in order; finishes when the connection has ended. Iterate it once.
    package let events: WebSocketEvents
    private let core: WebSocketConnectionCore

    init(url: WebSocketURL, selectedProtocol: String?, events: AsyncStream<WebSocketEvent>, core: WebSocketConnectionCore) {
        self.url = url
        self.selectedProtocol = selectedProtocol
        self.events = WebSocketEvents(base: events, core: core)
        self.core = core
    }

    deinit { core.abandon() }

    /// Connects to `url` (`ws://` or `wss://`) and completes the upgrade.
    /// - Throws: ``WebSocketError`` naming the URL and what failed:
    ///   ``WebSocketError/Code/invalidRequest`` (the URL, a header), ``WebSocketError/Code/unavailable`` (libcurl),
    ///   ``WebSocketError/Code/connectFailed`` (DNS, refused, a proxy), ``WebSocketError/Code/tlsFailed``,
    ///   ``WebSocketError/Code/timedOut`` (connect or handshake), ``WebSocketError/Code/handshakeRefused``
    ///   (the status, a header), ``WebSocketError/Code/handshakeMalformed``, ``WebSocketError/Code/connectionClosed``
    ///   (the server closed the connection before it answered).
    /// - Parameter handler: takes the events on the connection's thread (``WebSocketEventHandler``);
    ///   ``events`` then yields none. Without it, they are read from ``events``.
    package static func connect(to url: String, options: WebSocketOptions = WebSocketOptions(),
                                handler: (any WebSocketEventHandler)? = nil) async throws(WebSocketError) -> WebSocketConnection {
        let parsed = try WebSocketURL(url)
        let handshake = try WebSocketHandshake(url: parsed, protocols: options.protocols, extraHeaders: options.headers)
        let curl = try library(options.libraryName, for: parsed)
        let handoff = OpenRequest.Handoff(nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let opened = OpenRequest(curl: curl, handshake: handshake, options: options, handler: handler, handoff: handoff,
                                     continuation: continuation)
            guard DetachedThread.start({ WebSocketIOLoop.run(opened) }) else {
                opened.answer(.failure(.connect(.unavailable, parsed, "the system refused a thread for the connection")))
                return
            }
        }
        // Taken out, so the connection's thread keeps no reference: releasing the connection must reach `abandon`.
        let result = handoff.withLock { answer in
            defer { answer = nil }
            return answer
        }
        guard let result else { throw .connect(.unavailable, parsed, "the connection's thread ended without an answer") }
        return try result.get()
    }

    /// Sends a text message; returns once libcurl has taken all of it.
    /// - Throws: ``WebSocketError/Code/closing`` once the close handshake has started,
    ///   ``WebSocketError/Code/connectionClosed`` once the connection has ended.
    package func send(text: String) async throws(WebSocketError) {
        try await core.write { state throws(WebSocketError) in try state.makeTextFrame(text) }
    }

    /// Sends a binary message; returns once libcurl has taken all of it.
    /// - Throws: as ``send(text:)``.
    package func send(binary: [UInt8]) async throws(WebSocketError) {
        try await core.write { state throws(WebSocketError) in try state.makeBinaryFrame(binary) }
    }

    /// Sends a ping carrying `payload` (at most 125 bytes; a longer one is cut); the server's
    /// pong arrives in ``events`` as `.pong` with the same payload.
    /// - Throws: as ``send(text:)``.
    package func ping(_ payload: [UInt8] = []) async throws(WebSocketError) {
        try await core.write { state throws(WebSocketError) in try state.makePingFrame(payload) }
    }

    /// Starts the close handshake with `code` and `reason` (a code that may not be sent is
    /// sent as 1000; the reason is cut to 123 bytes), waits at most
    /// ``WebSocketOptions/closeTimeout`` for the server's close frame, then drops the
    /// connection. Returns at once when it has ended already; a second call waits for the first.
    package func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") async {
        await core.close(code: code, reason: reason)
    }

    /// libcurl, loaded once per name for the process.
    private static func library(_ name: String, for url: WebSocketURL) throws(WebSocketError) -> LibCurl {
        let result = libraries.withLock { loaded in
            if let known = loaded[name] { return known }
            let made = Result { () throws(LibCurl.LoadError) in try LibCurl.load(name) }
            loaded[name] = made
            return made
        }
        switch result {
        case .success(let curl): return curl
        case .failure(let error): throw .connect(.unavailable, url, error.description)
        }
    }

    // A pthread lock: the first connections of a process may contend for it (see `Lock`).
    private static let libraries = Lock<[String: Result<LibCurl, LibCurl.LoadError>]>([:])
}

/// What the connection's thread needs to open it, and whom to tell.
struct OpenRequest: Sendable {
    /// Where the answer is left for the waiting task: under a pthread lock, so that ThreadSanitizer
    /// sees everything the thread made (the connection, its core) happen before the task reads it;
    /// a continuation resumed from a thread of our own is a hand-off TSan cannot see.
    typealias Handoff = Lock<Result<WebSocketConnection, WebSocketError>?>

    let curl: LibCurl
    let handshake: WebSocketHandshake
    let options: WebSocketOptions
    let handler: (any WebSocketEventHandler)?
    let handoff: Handoff
    let continuation: CheckedContinuation<Void, Never>

    /// Leaves `result` for the waiting task and wakes it; once.
    func answer(_ result: Result<WebSocketConnection, WebSocketError>) {
        handoff.withLock { $0 = result }
        continuation.resume()
    }
}

/// A connection's events, read at most ``WebSocketConnectionCore/readAhead`` ahead of
/// whoever iterates them: each one taken lets the connection's thread read on.
package struct WebSocketEvents: AsyncSequence, Sendable {
    package typealias Element = WebSocketEvent
    let base: AsyncStream<WebSocketEvent>
    let core: WebSocketConnectionCore

    package struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<WebSocketEvent>.AsyncIterator
        let core: WebSocketConnectionCore

        package mutating func next() async -> WebSocketEvent? {
            let event = await base.next()
            if event != nil { core.taken() }
            return event
        }

        package mutating func next(isolation actor: isolated (any Actor)?) async -> WebSocketEvent? {
            let event = await base.next(isolation: actor)
            if event != nil { core.taken() }
            return event
        }
    }

    package func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), core: core)
    }
}
