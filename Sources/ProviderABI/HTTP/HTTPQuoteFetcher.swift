/// A fetcher that asks an HTTP API one GET per quote: the shape of every
/// market plugin. `request` builds the GET, `read` turns the answer into a
/// quote or the API's own error.
///
/// `request` may throw instead, before anything is sent: a pair the market
/// cannot have is a `not_found` that costs no request.
public struct HTTPQuoteFetcher: PriceFetcher {
    /// Where requests go: the host's HTTP service, or a simulation in tests.
    public let http: any HTTPClient
    private let makeRequest: @Sendable (QuoteRequest) throws -> HTTPRequest
    private let read: @Sendable (HTTPResponse, QuoteRequest) throws -> Quote

    /// Creates a fetcher.
    /// - Parameters:
    ///   - request: the GET for a quote request; may throw ``ProviderError``.
    ///   - read: the quote in an answer (any status), called as it arrives, so
    ///     "now" in it is the time of receipt; throws the API's error.
    public init(http: any HTTPClient, request: @escaping @Sendable (QuoteRequest) throws -> HTTPRequest,
                read: @escaping @Sendable (HTTPResponse, QuoteRequest) throws -> Quote) {
        self.http = http
        self.makeRequest = request
        self.read = read
    }

    /// The GET that answers `request`, as ``fetchQuote(for:)`` would send it.
    /// - Throws: what the `request` closure throws.
    public func request(for request: QuoteRequest) throws -> HTTPRequest {
        try makeRequest(request)
    }

    /// Sends the GET and reads the answer.
    /// - Throws: ``ProviderError`` from building the request, the host's HTTP service, or `read`.
    public func fetchQuote(for request: QuoteRequest) async throws -> Quote {
        let response = try await http.get(try makeRequest(request))
        return try read(response, request)
    }
}
