/// Performs HTTP GETs. A plugin gets the host's through ``PluginContext/http``;
/// tests substitute a simulated one.
public protocol HTTPClient: Sendable {
    /// Sends `request` and returns the answer, whatever its status.
    ///
    /// - Throws: ``ProviderError`` with code `timeout`, `unavailable`,
    ///   `response_too_large` or `invalid_request`.
    func get(_ request: HTTPRequest) async throws -> HTTPResponse
}
