import CCurl
import Glibc

/// A connection that libcurl opened and handed over (`CURLOPT_CONNECT_ONLY`):
/// DNS, proxies (tunnelled with CONNECT), TCP and TLS are libcurl's, and the
/// bytes on it are ours, through `curl_easy_send` and `curl_easy_recv`. What
/// WebSocket runs on where libcurl has no WebSocket of its own (Debian 12's 7.88).
///
/// Neither call blocks: each answers ``Transferred/wouldBlock`` when the socket
/// is not ready, and the owner polls ``socket``. Before polling for input, read
/// until ``Transferred/wouldBlock``: the TLS library may hold decrypted bytes
/// while the socket reads as idle.
///
/// Not `Sendable`, on purpose: libcurl lets one thread at a time use an easy
/// handle, so a stream is opened, used and released by one thread (the
/// connection's own, ``WebSocketConnection``). Releasing it closes the connection.
final class CurlStream {
    /// What one send or receive did.
    enum Transferred: Equatable {
        /// This many bytes went out or came in (never 0).
        case bytes(Int)
        /// The socket is not ready: poll it, then call again.
        case wouldBlock
        /// The peer closed the connection (receive only).
        case ended
        /// libcurl's error code: the connection is broken.
        case failed(Int)
    }

    private let curl: LibCurl
    private let easy: UnsafeMutableRawPointer
    /// The connection's socket, for `poll`; closed by libcurl when the stream is released.
    let socket: Int32

    private init(curl: LibCurl, easy: UnsafeMutableRawPointer, socket: Int32) {
        self.curl = curl
        self.easy = easy
        self.socket = socket
    }

    deinit { curl.easyCleanup(easy) }

    /// Opens a connection to `url`'s host and port (TLS for `wss`), blocking for at most `options.connectTimeout`.
    /// HTTP/1.1 only, ALPN off: a server offered h2 may pick it, and then the upgrade fails.
    /// - Throws: ``WebSocketError/Code/connectFailed``, ``WebSocketError/Code/tlsFailed``,
    ///   ``WebSocketError/Code/timedOut`` or ``WebSocketError/Code/unavailable``, naming the URL and the cause.
    static func open(curl: LibCurl, url: WebSocketURL, options: WebSocketOptions) throws(WebSocketError) -> CurlStream {
        guard let easy = curl.easyInit() else { throw .connect(.unavailable, url, "libcurl could not make a handle (out of memory)") }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CCURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CCURL_ERROR_SIZE))
        defer { errorBuffer.deallocate() }
        url.httpURL.withCString { _ = curl.set(easy, Int32(CCURLOPT_URL), $0) }
        curl.set(easy, Int32(CCURLOPT_CONNECT_ONLY), 1)
        curl.set(easy, Int32(CCURLOPT_PROTOCOLS), Int(CCURLPROTO_HTTP | CCURLPROTO_HTTPS))
        curl.set(easy, Int32(CCURLOPT_HTTP_VERSION), Int(CCURL_HTTP_VERSION_1_1))
        curl.set(easy, Int32(CCURLOPT_SSL_ENABLE_ALPN), 0)
        // Through a proxy, always a CONNECT tunnel: the upgrade request is ours, written to the server itself.
        curl.set(easy, Int32(CCURLOPT_HTTPPROXYTUNNEL), 1)
        curl.set(easy, Int32(CCURLOPT_NOSIGNAL), 1)
        curl.set(easy, Int32(CCURLOPT_TCP_KEEPALIVE), 1)
        curl.set(easy, Int32(CCURLOPT_CONNECTTIMEOUT_MS), CurlEventLoop.milliseconds(options.connectTimeout))
        curl.set(easy, Int32(CCURLOPT_ERRORBUFFER), UnsafeRawPointer(errorBuffer))
        if let caFile = options.caFile {
            caFile.withCString { _ = curl.set(easy, Int32(CCURLOPT_CAINFO), $0) }
        }
        let code = Int(curl.easyPerform(easy))
        // The buffer goes away with this call: libcurl must not write to it later.
        curl.set(easy, Int32(CCURLOPT_ERRORBUFFER), nil)
        guard code == CCURLE_OK else {
            let systemError = Int32(clamping: curl.info(easy, long: Int32(CCURLINFO_OS_ERRNO)))
            let message = String(cString: errorBuffer)
            curl.easyCleanup(easy)
            throw failure(code: code, url: url, options: options, systemError: systemError, curlMessage: message)
        }
        let socket = curl.info(easy, socket: Int32(CCURLINFO_ACTIVESOCKET))
        guard socket >= 0 else {
            curl.easyCleanup(easy)
            throw .connect(.unavailable, url, "libcurl connected but gave no socket (CURLINFO_ACTIVESOCKET)")
        }
        return CurlStream(curl: curl, easy: easy, socket: socket)
    }

    /// Writes what of `bytes` the socket takes now.
    func send(_ bytes: UnsafeRawBufferPointer) -> Transferred {
        guard !bytes.isEmpty else { return .bytes(0) }
        var sent = 0
        let code = Int(curl.easySend(easy, bytes.baseAddress, bytes.count, &sent))
        switch code {
        case CCURLE_OK: return sent > 0 ? .bytes(sent) : .wouldBlock
        case CCURLE_AGAIN: return .wouldBlock
        default: return .failed(code)
        }
    }

    /// Reads what is there into `buffer`.
    func receive(into buffer: UnsafeMutableRawBufferPointer) -> Transferred {
        var received = 0
        let code = Int(curl.easyRecv(easy, buffer.baseAddress, buffer.count, &received))
        switch code {
        case CCURLE_OK: return received > 0 ? .bytes(received) : .ended
        case CCURLE_AGAIN: return .wouldBlock
        default: return .failed(code)
        }
    }

    /// libcurl's `code` for opening `url`, in our words; `curlMessage` is kept where it names what the user must fix (a certificate).
    static func failure(code: Int, url: WebSocketURL, options: WebSocketOptions, systemError: Int32, curlMessage: String) -> WebSocketError {
        let said = curlMessage.isEmpty ? "" : " (libcurl: \(curlMessage))"
        switch code {
        case CCURLE_COULDNT_RESOLVE_HOST:
            return .connect(.connectFailed, url, "host \(url.host) not found (DNS lookup failed)")
        case CCURLE_COULDNT_CONNECT:
            if systemError == ECONNREFUSED || systemError == 0 { return .connect(.connectFailed, url, "connection refused") }
            return .connect(.connectFailed, url, "cannot connect: \(String(cString: strerror(systemError)))")
        case CCURLE_OPERATION_TIMEDOUT:
            return .connect(.timedOut, url, "no connection within \(CurlOutcome.describe(options.connectTimeout)) (connectTimeout)")
        case CCURLE_COULDNT_RESOLVE_PROXY:
            return .connect(.connectFailed, url, "the proxy's host was not found (DNS lookup failed; see HTTPS_PROXY, http_proxy)")
        case CCURLE_PROXY:
            return .connect(.connectFailed, url, "the proxy refused or failed the connection (see HTTPS_PROXY, http_proxy)\(said)")
        case CCURLE_SSL_CACERT_BADFILE:
            let file = options.caFile.map { "caFile \($0)" } ?? "the system's CA bundle"
            return .connect(.tlsFailed, url, "\(file) cannot be read as PEM certificates\(said)")
        case CCURLE_PEER_FAILED_VERIFICATION, CCURLE_SSL_ISSUER_ERROR, CCURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CCURLE_SSL_INVALIDCERTSTATUS, CCURLE_SSL_CRL_BADFILE:
            let authority = options.caFile.map { "the CAs in caFile \($0)" } ?? "the system's CAs (set caFile for a private CA)"
            return .connect(.tlsFailed, url, "TLS certificate problem: the server's certificate is not trusted by \(authority)\(said)")
        case CCURLE_SSL_CONNECT_ERROR, CCURLE_SSL_CERTPROBLEM, CCURLE_SSL_CIPHER, CCURLE_SSL_CLIENTCERT:
            return .connect(.tlsFailed, url, "the TLS handshake failed\(said)")
        case CCURLE_URL_MALFORMAT, CCURLE_UNSUPPORTED_PROTOCOL:
            return .connect(.connectFailed, url, "libcurl cannot use the URL \(url.httpURL)\(said)")
        case CCURLE_OUT_OF_MEMORY:
            return .connect(.unavailable, url, "out of memory")
        default:
            return .connect(.connectFailed, url, "libcurl error \(code)\(said)")
        }
    }
}
