import PriceHostCore

/// How ``ServeApplication`` builds what it serves. The executable's wiring implements it
/// (`PriceHost/CommandLine/ServeWiring.swift`): plugins, the container and the feeds come from
/// layers this target does not import. Tests give their own.
package protocol ServeAssembly: Sendable {
    /// The config file, read again (SIGHUP).
    func loadConfig() -> Result<Config, ServeRefusal>

    /// Everything built from `config`: the container, every plugin loaded, fetchers that coalesce and report to
    /// `metrics` (and, with a `fleet`, share through Redis), and the feeds: `feeds` when given (a reload keeps them),
    /// else new ones.
    func makeGeneration(_ config: Config, metrics: ServeMetrics, fleet: SharedFleet?, feeds: (any QuoteFeeds)?)
        -> Result<ServeGeneration, ServeRefusal>
}

/// Why a config cannot be served: one line each.
package struct ServeRefusal: Error, Equatable {
    package var lines: [String]

    package init(lines: [String]) {
        self.lines = lines
    }
}
