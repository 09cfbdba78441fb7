import CProviderABI

/// The host's HTTP service (ABI 1.1) seen as an ``HTTPClient``.
struct HostHTTPClient: HTTPClient {
    let host: HostServices

    func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let httpGet = host.httpGet else {
            throw ProviderError(.unavailable, "this pricehost has no HTTP service (plugin ABI 1.0); upgrade pricehost")
        }
        let hostContext = host.table.host_context
        return try await CHTTPBridge.perform(request) { cRequest, completion, context in
            httpGet(hostContext, cRequest, completion, context)
        }
    }
}
