import ConcurrencyHelpers
import FoundationEssentials
import PriceHostCore
import ProviderABI

/// The JSON line of each quote answered lately (``QuoteFormatter/json(_:amount:at:)``), kept so that
/// a cached quote asked for again and again is formatted once: its decimal amount's text costs
/// more than the rest of the answer. At most ``capacity`` quotes; past that it starts again empty.
/// A line is kept without its `ageMs`, which is the last member and is added at each answer.
final class QuoteLines: Sendable {
    private let lines = Lock<[Quote: String]>([:])
    static let capacity = 1024

    /// The line of `quote`, with its `ageMs` at `now`.
    func json(_ quote: Quote, at now: Date) -> String {
        var bytes = Array(kept(quote).utf8)
        bytes.removeLast()
        QuoteFormatter.appendAge(of: quote, at: now, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The line of `quote` without its age.
    private func kept(_ quote: Quote) -> String {
        if let line = lines.withLock({ $0[quote] }) { return line }
        let line = QuoteFormatter.json(quote)
        lines.withLock { lines in
            if lines.count >= Self.capacity { lines.removeAll(keepingCapacity: true) }
            lines[quote] = line
        }
        return line
    }
}
