/// The version of pricehost, for `--version` and the HTTP `User-Agent`.
package enum PriceHostVersion {
    /// The release, as `MAJOR.MINOR.PATCH`.
    package static let text = "0.1.0"
    /// The `User-Agent` sent with every request that does not set its own.
    package static let userAgent = "pricehost/\(text)"
}
