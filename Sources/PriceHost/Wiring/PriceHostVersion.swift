/// The version of pricehost, for `--version` and the HTTP `User-Agent`.
enum PriceHostVersion {
    /// The release, as `MAJOR.MINOR.PATCH`.
    static let text = "0.1.0"
    /// The `User-Agent` sent with every request that does not set its own.
    static let userAgent = "pricehost/\(text)"
}
