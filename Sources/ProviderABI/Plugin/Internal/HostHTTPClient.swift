import CProviderABI

/// The host's HTTP service (ABI 1.1) seen as an ``HTTPClient``.
struct HostHTTPClient: HTTPClient {
    let host: HostServices

    func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await perform(request, retryingWhen: nil)
    }

    /// In a 1.1 host, which does not read `retry_answer`, `isRetryable` is never asked.
    func get(_ request: HTTPRequest, retryingWhen isRetryable: @escaping @Sendable (HTTPResponse) -> Bool) async throws -> HTTPResponse {
        try await perform(request, retryingWhen: isRetryable)
    }

    private func perform(_ request: HTTPRequest, retryingWhen isRetryable: (@Sendable (HTTPResponse) -> Bool)?) async throws -> HTTPResponse {
        guard let httpGet = host.httpGet else {
            throw ProviderError(.unavailable, "this pricehost has no HTTP service (plugin ABI 1.0); upgrade pricehost")
        }
        let hostContext = host.table.host_context
        return try await CHTTPBridge.perform(request, retryingWhen: isRetryable) { cRequest, completion, context in
            httpGet(hostContext, cRequest, completion, context)
        }
    }
}
