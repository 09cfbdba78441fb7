import CCurl
import Glibc
import ProviderABI

/// How an exchange ended, in pricehost's words: one sentence naming the URL
/// and the cause. (``ProviderHTTPClient`` adds the attempt count.)
///
/// The code decides what the host's policy does next: `timeout` and
/// `unavailable` are retried; `invalid_response` and `response_too_large`
/// would get the same answer again and are not.
enum CurlOutcome {
    /// The answer, or the failure, of a finished transfer.
    package static func of(_ transfer: CurlTransfer, code: Int, curl: LibCurl) -> Result<CurlJob.Exchange, any Error> {
        let job = transfer.job
        if code == CCURLE_OK {
            let status = curl.info(transfer.easy, long: Int32(CCURLINFO_RESPONSE_CODE))
            let redirect = (300...399).contains(status) ? curl.info(transfer.easy, string: Int32(CCURLINFO_REDIRECT_URL)) : nil
            return .success(.init(response: HTTPResponse(status: status, headers: transfer.headers, body: transfer.body),
                                  redirectURL: redirect))
        }
        let connected = curl.info(transfer.easy, double: Int32(CCURLINFO_CONNECT_TIME)) > 0
        let failure = error(code: code, abort: transfer.abort, method: job.method, url: job.url, options: job.options,
                            timeout: job.timeout, elapsed: ContinuousClock.now - transfer.started, connected: connected,
                            systemError: Int32(clamping: curl.info(transfer.easy, long: Int32(CCURLINFO_OS_ERRNO))),
                            curlMessage: transfer.curlMessage, received: transfer.body.count,
                            announced: transfer.announcedLength)
        return .failure(failure)
    }

    /// The stall limit for an exchange allowed `timeout`: no byte for half of it
    /// (whole seconds, as libcurl counts) ends it early; `nil` below 2 s, where
    /// the whole deadline comes first anyway.
    static func stallSeconds(timeout: Duration) -> Int? {
        let half = Int(timeout.components.seconds / 2)
        return half >= 1 ? half : nil
    }

    /// The failure for libcurl's `code`, in our words.
    package static func error(code: Int, abort: CurlTransfer.Abort?, method: String = "GET", url: String, options: TransferOptions, timeout: Duration,
                      elapsed: Duration, connected: Bool, systemError: Int32, curlMessage: String,
                      received: Int, announced: Int?) -> ProviderError {
        func fail(_ code: ProviderError.Code, _ cause: String) -> ProviderError {
            ProviderError(code, "\(method) \(url): \(cause)")
        }
        switch (code, abort) {
        case (_, .bodyTooLarge(let announced?)):
            return fail(.responseTooLarge, "the answer is \(announced) bytes; the limit (maxResponseBytes) is \(options.maxResponseBytes)")
        case (_, .bodyTooLarge(nil)), (CCURLE_FILESIZE_EXCEEDED, _):
            return fail(.responseTooLarge, "the answer is more than \(options.maxResponseBytes) bytes, the limit (maxResponseBytes); stopped reading it there")
        case (_, .headersTooLarge):
            return fail(.invalidResponse, "the answer's headers go on past \(CurlTransfer.maxHeaderBytes / 1024) KiB; stopped reading them")
        case (CCURLE_OPERATION_TIMEDOUT, _):
            if !connected { return fail(.timeout, "no connection within \(describe(timeout))") }
            if let stall = stallSeconds(timeout: timeout), elapsed < timeout - .milliseconds(250) {
                return fail(.timeout, "no byte received for \(stall) s")
            }
            return fail(.timeout, "no complete answer within \(describe(timeout))")
        case (CCURLE_COULDNT_CONNECT, _):
            if systemError == ECONNREFUSED || systemError == 0 { return fail(.unavailable, "connection refused") }
            return fail(.unavailable, "cannot connect: \(String(cString: strerror(systemError)))")
        case (CCURLE_COULDNT_RESOLVE_HOST, _):
            return fail(.unavailable, "host not found (DNS lookup failed)")
        case (CCURLE_COULDNT_RESOLVE_PROXY, _):
            return fail(.unavailable, "the proxy's host was not found (DNS lookup failed; see HTTPS_PROXY, http_proxy)")
        case (CCURLE_PROXY, _):
            return fail(.unavailable, "the proxy refused or failed the connection (see HTTPS_PROXY, http_proxy)")
        case (CCURLE_PARTIAL_FILE, _):
            let expected = announced.map { " of the \($0) announced" } ?? ""
            return fail(.unavailable, "the body ended early: \(received) bytes\(expected) arrived before the connection closed")
        case (CCURLE_GOT_NOTHING, _):
            return fail(.unavailable, "the server closed the connection without answering")
        case (CCURLE_SEND_ERROR, _), (CCURLE_RECV_ERROR, _):
            if curlMessage.contains("chunk") {
                return fail(.invalidResponse, "malformed response: the chunked body is not valid HTTP/1.1 chunked encoding")
            }
            return fail(.unavailable, "the connection was lost before the answer was complete")
        case (CCURLE_TOO_MANY_REDIRECTS, _):
            return fail(.invalidResponse, "too many redirects")
        case (CCURLE_UNSUPPORTED_PROTOCOL, _), (CCURLE_WEIRD_SERVER_REPLY, _), (CCURLE_HTTP2, _), (CCURLE_HTTP2_STREAM, _):
            return fail(.invalidResponse, "malformed response: the server's answer is not valid HTTP")
        case (CCURLE_BAD_CONTENT_ENCODING, _):
            return fail(.invalidResponse, "malformed response: the body's content encoding (gzip, deflate…) is corrupt")
        case (CCURLE_PEER_FAILED_VERIFICATION, _), (CCURLE_SSL_CACERT_BADFILE, _), (CCURLE_SSL_ISSUER_ERROR, _),
             (CCURLE_SSL_PINNEDPUBKEYNOTMATCH, _), (CCURLE_SSL_INVALIDCERTSTATUS, _), (CCURLE_SSL_CRL_BADFILE, _):
            let authority = options.caFile.map { "the CA in caFile \($0)" } ?? "the system's CAs"
            return fail(.invalidResponse, "TLS certificate problem: the server's certificate is not trusted by \(authority)")
        case (CCURLE_SSL_CONNECT_ERROR, _), (CCURLE_SSL_CERTPROBLEM, _), (CCURLE_SSL_CIPHER, _), (CCURLE_SSL_CLIENTCERT, _),
             (CCURLE_SSL_SHUTDOWN_FAILED, _):
            return fail(.unavailable, "the TLS handshake failed")
        case (CCURLE_URL_MALFORMAT, _):
            return fail(.invalidRequest, "not a valid URL")
        case (CCURLE_OUT_OF_MEMORY, _):
            return fail(.unavailable, "out of memory")
        default:
            return fail(.unavailable, "the transfer failed (libcurl error \(code))")
        }
    }

    /// `10 s`, `1.5 s`.
    static func describe(_ duration: Duration) -> String {
        let milliseconds = CurlEventLoop.milliseconds(duration)
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        var fraction = String(milliseconds % 1000)
        while fraction.count < 3 { fraction = "0" + fraction }
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(milliseconds / 1000).\(fraction) s"
    }
}
