/// Performs HTTP GETs. A plugin gets the host's through ``PluginContext/http``;
/// tests substitute a simulated one.
public protocol HTTPClient: Sendable {
    /// Sends `request` and returns the answer, whatever its status.
    ///
    /// - Throws: ``ProviderError`` with code `timeout`, `unavailable`,
    ///   `response_too_large` or `invalid_request`.
    func get(_ request: HTTPRequest) async throws -> HTTPResponse

    /// Sends `request`, and also treats an answer for which `isRetryable`
    /// returns true as one that may succeed later (an API's "busy" inside a
    /// 200): the host retries it as it retries a 503, within the provider's
    /// `maxAttempts`, and returns the last answer when they run out.
    ///
    /// The default implementation ignores `isRetryable` and calls ``get(_:)``.
    /// - Throws: as ``get(_:)``.
    func get(_ request: HTTPRequest, retryingWhen isRetryable: @escaping @Sendable (HTTPResponse) -> Bool) async throws -> HTTPResponse
}

extension HTTPClient {
    /// Ignores `isRetryable`: a client without a retry policy of its own just sends the request.
    public func get(_ request: HTTPRequest, retryingWhen isRetryable: @escaping @Sendable (HTTPResponse) -> Bool) async throws -> HTTPResponse {
        try await get(request)
    }
}
