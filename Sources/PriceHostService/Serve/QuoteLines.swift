import ConcurrencyHelpers
import PriceHostCore
import ProviderABI

/// The JSON line of each quote answered lately (``QuoteFormatter/json(_:amount:)``), kept so that
/// a cached quote asked for again and again is formatted once: its decimal amount's text costs
/// more than the rest of the answer. At most ``capacity`` quotes; past that it starts again empty.
final class QuoteLines: Sendable {
    private let lines = Lock<[Quote: String]>([:])
    static let capacity = 1024

    /// The line of `quote`.
    func json(_ quote: Quote) -> String {
        if let line = lines.withLock({ $0[quote] }) { return line }
        let line = QuoteFormatter.json(quote)
        lines.withLock { lines in
            if lines.count >= Self.capacity { lines.removeAll(keepingCapacity: true) }
            lines[quote] = line
        }
        return line
    }
}
