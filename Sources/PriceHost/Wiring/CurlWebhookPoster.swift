import PriceHostHTTP
import PriceHostService
import ProviderABI

/// serve's webhooks post through libcurl: the service layer owns ``WebhookPoster``, this adapter
/// implements it over ``CurlTransport`` (its own instance, so webhooks share no connection with providers).
struct CurlWebhookPoster: WebhookPoster {
    let transport: CurlTransport

    /// - Parameter libcurl: `PRICEHOST_LIBCURL` or the default soname.
    init(libcurl: String) {
        transport = CurlTransport(libraryName: libcurl)
    }

    func post(url: String, headers: [HTTPHeader], body: [UInt8], timeout: Duration) async throws -> Int {
        try await transport.post(HTTPRequest(url: url, headers: headers, timeout: timeout), body: body).status
    }
}
