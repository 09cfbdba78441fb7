import ProviderABI

/// How a webhook's POST is sent: the executable's wiring gives one over its HTTP transport
/// (libcurl), since this layer does not import it; tests may give their own.
package protocol WebhookPoster: Sendable {
    /// POSTs `body` to `url` with `headers`, within `timeout`.
    /// - Returns: the answer's status code, whatever it is.
    /// - Throws: when no answer came (refused, timed out, not HTTP).
    func post(url: String, headers: [HTTPHeader], body: [UInt8], timeout: Duration) async throws -> Int
}
