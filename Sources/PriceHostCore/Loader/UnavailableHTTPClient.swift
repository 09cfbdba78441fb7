import ProviderABI

/// An HTTP client that explains why there is none.
package struct UnavailableHTTPClient: HTTPClient {
    package let reason: String

    package init(reason: String) {
        self.reason = reason
    }

    package func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        throw ProviderError(.unavailable, "GET \(request.url): no HTTP client: \(reason)")
    }
}
