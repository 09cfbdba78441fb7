/// An HTTP GET, as a provider asks the host for one.
public struct HTTPRequest: Sendable, Hashable {
    /// An absolute `http://` or `https://` URL.
    public var url: String
    /// Headers to send.
    public var headers: [HTTPHeader]
    /// Time allowed for one attempt; `nil` takes the provider's `timeoutSeconds`.
    public var timeout: Duration?

    /// Creates a request.
    public init(url: String, headers: [HTTPHeader] = [], timeout: Duration? = nil) {
        self.url = url
        self.headers = headers
        self.timeout = timeout
    }
}
