import ProviderABI

/// HTTP as the host provides it to plugins: the seeds' `Networking`.
///
/// The transport: one GET, no retries. The composition root registers
/// ``CurlTransport`` as the unnamed `Networking`; each provider's
/// ``ProviderHTTPClient`` puts its policy around whatever `Networking` the
/// container resolves, so a test swaps a simulated transport in through a
/// child container and keeps the real policy.
package protocol Networking: Sendable {
    /// Performs one GET (following redirects only as `options` allow).
    /// - Parameter options: the body cap (a larger body is an error, and the transfer
    ///   stops as soon as it is exceeded), redirects, the CA bundle.
    /// - Returns: the answer, whatever its status.
    /// - Throws: ``ProviderError`` with code `timeout`, `unavailable`, `invalid_response`,
    ///   `response_too_large`, `invalid_request`, or `failed` when the transport cannot work at all.
    func get(_ request: HTTPRequest, options: TransferOptions) async throws -> HTTPResponse

    /// Gets ready for the first request (loads what it needs), so that the time
    /// this takes is not spent between drawing from a request budget and sending.
    /// - Throws: ``ProviderError`` when the transport cannot work at all.
    func prepare() throws
}

extension Networking {
    /// Nothing to get ready.
    func prepare() throws {}
}
