/// What `fetch` takes.
extension FetchCommand {
    static let configuration = CommandConfiguration(
        name: "fetch",
        summary: "print the price of each asset from its provider, or with --aggregate the median of several",
        usage: [
            UsageLine("--asset", "[--provider]", "[--currency]", "[--max-age]", "[--format]"),
        ])

    static let formats: [Invocation.Format] = [.text, .json, .csv]

    static let options: [Option<FetchCommand>] = [
        .config(\.plugins), .asset(\.quotes), .provider(\.quotes), .currency(\.quotes),
        .format(\.format, supported: formats), .aggregate(\.quotes), .maxAge(\.quotes), .allowInsecurePlugins(\.plugins),
    ]

    func validate() throws(UsageError) {
        try quotes.requireAssets(for: Self.configuration.name)
    }
}
