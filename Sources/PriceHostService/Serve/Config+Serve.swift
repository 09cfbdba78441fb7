import PriceHostCore

extension Config {
    /// `serve`: what `pricehost serve` listens on and allows; the defaults when the file has none.
    package var serve: ServeSettings { section(ServeSettings.self) ?? ServeSettings() }
}
