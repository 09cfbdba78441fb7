extension AggregateQuote {
    /// What to warn about an aggregate's sources, for `fetch` and `watch` alike.
    ///
    /// A median of one source is no median, and is never silent: one line names
    /// the source and why each other one failed (`median of 1 source: kraken;
    /// the others failed: gemini: …; bitstamp: …`), or that no other was asked.
    /// Otherwise, one line per source left out.
    package static func sourceWarnings(for result: Result<AggregateQuote, QuoteFailure>, leftOut: [QuoteFailure]) -> [String] {
        guard case .success(let aggregate) = result, aggregate.sources.count == 1 else {
            return leftOut.map { "left out of the median: \($0)" }
        }
        let source = "median of 1 source: \(aggregate.sources[0].provider)"
        guard !leftOut.isEmpty else {
            return ["\(source); no other provider was asked (name several: --provider a,b,c or assets.\(aggregate.asset).providers)"]
        }
        return ["\(source); the others failed: " + leftOut.map(\.description).joined(separator: "; ")]
    }
}
