import ConcurrencyHelpers
import PriceHostCore
import ProviderABI
import Synchronization

/// The real transport: libcurl's C API, `dlopen`ed on the first request.
///
/// - One ``CurlEventLoop`` (a multi handle and its thread) serves every request
///   made through one transport, so connections, TLS sessions and DNS answers are reused:
///   the providers' transport, and serve's webhooks' own (`CurlWebhookPoster`), so that a
///   slow endpoint never holds a provider's request.
/// - The body cap holds while the bytes arrive: a `Content-Length` over it is
///   refused before the body is read, and the write callback stops the transfer
///   the moment the (decoded) body would pass it.
/// - No redirect is followed unless the provider opts in (`followRedirects`),
///   and then at most ``TransferOptions/redirectLimit``, within the same origin (scheme, host,
///   port), so that a plugin's headers (an API key) never go elsewhere.
/// - Proxies come from the environment as curl reads them (`https_proxy` or
///   `HTTPS_PROXY`, `http_proxy`, `NO_PROXY`); certificates are checked against
///   the system's CAs, or the provider's `caFile`.
///
/// If libcurl cannot be loaded, each request fails with ``loadFailure``'s line
/// (and the command exits 3); nothing else does.
package final class CurlTransport: Networking {
    /// The `User-Agent` sent with every request that does not set its own.
    static let userAgent = PriceHostVersion.userAgent

    private let libraryName: String
    // A pthread lock, not `Mutex`, so that ThreadSanitizer sees concurrent first requests hand over (see `Lock`).
    private let loop = Lock<Result<CurlEventLoop, LibCurl.LoadError>?>(nil)
    private let nextJob = Atomic<Int>(0)

    /// A transport that loads `libraryName` (a soname or a path) on the first request.
    package init(libraryName: String = LibCurl.defaultName) {
        self.libraryName = libraryName
    }

    /// Why libcurl could not be loaded, once a request has tried; `nil` before that or when it loaded.
    package var loadFailure: LibCurl.LoadError? {
        loop.withLock { loop in
            if case .failure(let error)? = loop { return error }
            return nil
        }
    }

    /// Loads libcurl and starts the loop, once; a failure is kept and repeated.
    package func prepare() throws {
        _ = try eventLoop()
    }

    package func get(_ request: HTTPRequest, options: TransferOptions) async throws -> HTTPResponse {
        let loop = try eventLoop()
        let headers = try Self.checkedHeaders(of: request, method: "GET")
        let timeout = request.timeout ?? ProviderPolicy().timeout
        var url = request.url
        var followed = 0
        while true {
            let exchange = try await perform(on: loop, url: url, headers: headers, timeout: timeout, options: options)
            guard options.maxRedirects > 0, let next = exchange.redirectURL else { return exchange.response }
            guard Self.origin(of: next) == Self.origin(of: url) else {
                throw ProviderError(.invalidResponse, "GET \(request.url): redirected to \(next), another origin; pricehost follows redirects only within one origin")
            }
            guard followed < options.maxRedirects else {
                throw ProviderError(.invalidResponse, "GET \(request.url): too many redirects (more than \(options.maxRedirects); the last to \(next))")
            }
            followed += 1
            url = next
        }
    }

    /// POSTs `body` to `url` (a webhook): no redirect followed; the answer's body (which a webhook's
    /// sender ignores) is capped, by default at 64 KiB.
    /// - Returns: the answer, whatever its status.
    /// - Throws: ``ProviderError`` as ``get(_:options:)`` does.
    package func post(_ request: HTTPRequest, body: [UInt8], options: TransferOptions = TransferOptions(maxResponseBytes: 64 * 1024)) async throws -> HTTPResponse {
        let loop = try eventLoop()
        var headers = try Self.checkedHeaders(of: request, method: "POST")
        // No `Expect: 100-continue` wait before the body: a receiver that does not answer it would cost a second a post.
        headers.append(HTTPHeader("Expect", ""))
        let exchange = try await perform(on: loop, url: request.url, headers: headers, body: body,
                                         timeout: request.timeout ?? ProviderPolicy().timeout, options: options)
        return exchange.response
    }

    /// `request`'s headers with the default `User-Agent`, once its URL and headers are checked.
    /// - Throws: ``ProviderError`` `invalid_request` naming `method` and the URL.
    private static func checkedHeaders(of request: HTTPRequest, method: String) throws(ProviderError) -> [HTTPHeader] {
        guard origin(of: request.url) != nil else {
            throw ProviderError(.invalidRequest, "\(method) \(request.url): not an absolute http or https URL")
        }
        if let unsafe = request.headers.first(where: { !$0.isSafe }) {
            throw ProviderError(.invalidRequest, "\(method) \(request.url): header \(JSONValue.quoted(unsafe.name)) contains a line break or is malformed")
        }
        var headers = request.headers
        if !headers.contains(where: { $0.name.lowercased() == "user-agent" }) {
            headers.append(HTTPHeader("User-Agent", userAgent))
        }
        return headers
    }

    /// One exchange on the loop (a POST of `body` when given); cancelling the task ends the transfer.
    private func perform(on loop: CurlEventLoop, url: String, headers: [HTTPHeader], body: [UInt8]? = nil, timeout: Duration,
                         options: TransferOptions) async throws -> CurlJob.Exchange {
        let id = nextJob.wrappingAdd(1, ordering: .relaxed).newValue
        let cancelled = CurlJob.Cancelled()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                loop.submit(CurlJob(id: id, url: url, headers: headers, body: body, timeout: timeout, options: options,
                                    continuation: continuation, cancelled: cancelled))
            }
        } onCancel: {
            // The flag first: a cancellation that reaches the loop before the job does is not lost.
            cancelled.set()
            loop.cancel(id)
        }
    }

    private func eventLoop() throws(ProviderError) -> CurlEventLoop {
        let result = loop.withLock { loop -> Result<CurlEventLoop, LibCurl.LoadError> in
            if let loop { return loop }
            let made = Result { () throws(LibCurl.LoadError) in try CurlEventLoop(curl: try LibCurl.load(libraryName)) }
            loop = made
            return made
        }
        switch result {
        case .success(let loop): return loop
        // Not retried: asking again cannot install the library.
        case .failure(let error): throw ProviderError(.failed, error.description)
        }
    }

    /// `http://host:port` of an absolute http(s) URL, lower-cased, with the default
    /// port made explicit; `nil` for anything else.
    static func origin(of url: String) -> String? {
        let lowered = url.lowercased()
        let scheme: String
        let defaultPort: String
        if lowered.hasPrefix("http://") {
            (scheme, defaultPort) = ("http", "80")
        } else if lowered.hasPrefix("https://") {
            (scheme, defaultPort) = ("https", "443")
        } else {
            return nil
        }
        var authority = lowered.dropFirst(scheme.count + 3).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        guard !authority.isEmpty else { return nil }
        // A port follows the last colon, unless that colon is inside an IPv6 literal's brackets.
        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
            return "\(scheme)://\(authority)"
        }
        return "\(scheme)://\(authority):\(defaultPort)"
    }
}
