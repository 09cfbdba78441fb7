/// What a provider's policy asks of one exchange.
package struct TransferOptions: Sendable, Equatable {
    /// The most redirects followed for one request, when a provider opts in (`followRedirects`).
    static let redirectLimit = 3

    /// The largest body accepted, counted after decoding; the transfer stops as soon as it is exceeded.
    var maxResponseBytes: Int
    /// Redirects followed within the same origin; 0 follows none.
    var maxRedirects = 0
    /// A CA bundle to trust instead of the system's.
    var caFile: String?
}
