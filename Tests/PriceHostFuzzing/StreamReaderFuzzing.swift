import ProviderABI
import Testing

/// Seeded, bounded fuzzing of a venue's ``StreamReader``: whatever the message, reading it
/// returns, and what it reports keeps the feed's rules. Every quote is for one of the
/// connection's pairs, at an amount ``DecimalAmount`` parses and above zero, with a time
/// in the years 0001 to 9999 or none; a sequence comes before the message's quotes; an
/// error or a reconnect reason is one printable line. See docs/FUZZING.md.
public enum StreamReaderFuzzing {
    /// Runs `iterations` messages mutated from `corpus` (with `tokens` inserted) through
    /// `reader`, each with one of `connections` as the connection's pairs. The first
    /// iterations read the corpus unmutated.
    /// - Returns: how the inputs fared: a value for a message that gave a quote, a clean error
    ///   for one that gave none; a failing input is recorded as an issue with the seed that reproduces it.
    @discardableResult
    public static func run(_ target: String, reader: any StreamReader, corpus: [String], tokens: [String],
                           connections: [[QuoteRequest]], iterations: Int = 4_000,
                           sourceLocation: SourceLocation = #_sourceLocation) throws -> FuzzTally {
        let corpusBytes = corpus.map { Array($0.utf8) }
        let mutator = Mutator(corpus: corpusBytes, tokens: Mutator.commonTokens + tokens.map { Array($0.utf8) })
        return try FuzzRun().loop(target, iterations: iterations, generate: { random, iteration in
            (iteration < corpusBytes.count ? corpusBytes[iteration] : mutator.mutate(using: &random), random.pick(connections))
        }, describe: { input in
            "pairs \(input.1.map(\.pair)), message \(FuzzText.describe(input.0))"
        }, check: { input in
            // The host hands the reader valid UTF-8 only, as a String repairs it here.
            check(reader.read(String(decoding: input.0, as: UTF8.self), pairs: input.1), pairs: input.1)
        }, sourceLocation: sourceLocation)
    }

    /// The milliseconds of the dates a quote may carry: 0001-01-01 to 9999-12-31.
    static let validMilliseconds: ClosedRange<Int64> = -62_135_596_800_000...253_402_300_799_999

    /// The properties every reading must have.
    static func check(_ events: [StreamEvent], pairs: [QuoteRequest]) -> FuzzOutcome {
        var quotes = 0
        for event in events {
            switch event {
            case .quote(let quote):
                quotes += 1
                guard pairs.contains(QuoteRequest(asset: quote.asset, currency: quote.currency)) else {
                    return .problem("a quote for \(quote.asset)-\(quote.currency), not one of the connection's pairs")
                }
                guard let amount = DecimalAmount.parse(quote.amount), amount > 0 else {
                    return .problem("a quote at \(FuzzText.quoted(quote.amount)), not a positive decimal")
                }
                // The host drops a quote whose bid or ask is no positive decimal: a reader should not give one.
                for (field, side) in [("bid", quote.bid), ("ask", quote.ask)] {
                    if let side, (DecimalAmount.parse(side).map { $0 <= 0 } ?? true) {
                        return .problem("a quote with \(field) \(FuzzText.quoted(side)), not a positive decimal")
                    }
                }
                if let time = quote.timestampMilliseconds, !validMilliseconds.contains(time) {
                    return .problem("a quote at \(time) ms, outside the years 0001 to 9999")
                }
            case .sequence:
                guard quotes == 0 else { return .problem("a sequence after the message's quotes: \(events)") }
            case .error(let text), .reconnect(let text):
                guard !text.isEmpty, text.count <= 400,
                      !text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
                    return .problem("not one printable line of at most 400 characters: \(FuzzText.quoted(text))")
                }
            case .heartbeat, .reply:
                break
            }
        }
        return quotes > 0 ? .value : .error
    }
}
