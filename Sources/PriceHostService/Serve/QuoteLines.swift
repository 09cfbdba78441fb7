import ConcurrencyHelpers
import FoundationEssentials
import PriceHostCore
import ProviderABI

/// The JSON line of each quote answered lately (``QuoteFormatter/json(_:amount:at:)``), kept so that
/// a cached quote asked for again and again is formatted once: its decimal amount's text costs
/// more than the rest of the answer. At most ``capacity`` quotes; past that it starts again empty.
/// A line is kept open, without its `ageMs` (the last member) and closing brace, which each answer adds.
final class QuoteLines: Sendable {
    private let lines = Lock<[Quote: String]>([:])
    static let capacity = 1024

    /// The line of `quote`, with its `ageMs` at `now`.
    func json(_ quote: Quote, at now: Date) -> String {
        kept(quote) + QuoteFormatter.ageMember + String(quote.ageMilliseconds(at: now)) + "}"
    }

    /// The line of `quote` up to its age.
    private func kept(_ quote: Quote) -> String {
        if let line = lines.withLock({ $0[quote] }) { return line }
        let line = String(QuoteFormatter.json(quote).dropLast())
        lines.withLock { lines in
            if lines.count >= Self.capacity { lines.removeAll(keepingCapacity: true) }
            lines[quote] = line
        }
        return line
    }
}
