import CProviderABI
import FoundationEssentials
import ProviderABI

/// A quote's best bid and ask (ABI 1.4): read from a plugin's `ph_quote` only where its
/// `struct_size` covers them, and checked by the rule its amount is checked by.
package enum QuoteSides {
    /// A bid or an ask the rule refused: which one, and its text.
    package struct Refusal: Error, Equatable {
        /// `bid` or `ask`.
        package var field: String
        /// What the plugin gave.
        package var text: String

        /// "a bid" or "an ask", for messages.
        package var named: String { field == "ask" ? "an ask" : "a bid" }
    }

    /// `quote`'s bid and ask texts, each `nil` when NULL or when `size` (the plugin's `struct_size`)
    /// does not cover its whole pointer: a 1.0 to 1.3 plugin's quote ends before them, and a size that
    /// ends inside one would make half a pointer of it.
    static func texts(of quote: ph_quote, size: Int) -> (bid: String?, ask: String?) {
        func covered(_ field: PartialKeyPath<ph_quote>) -> Bool {
            guard let offset = MemoryLayout<ph_quote>.offset(of: field) else { return false }
            return size >= offset + MemoryLayout<UnsafePointer<CChar>?>.size
        }
        let bid = covered(\ph_quote.bid) ? quote.bid.map { String(cString: $0) } : nil
        let ask = covered(\ph_quote.ask) ? quote.ask.map { String(cString: $0) } : nil
        return (bid, ask)
    }

    /// `bid` and `ask` made amounts by `accepts` (the amount's rule where the quote came from: any decimal
    /// for a fetch, one above zero for a stream); a `nil` side stays unknown.
    /// - Returns: the amounts, or the first side `accepts` refused.
    package static func check(bid: String?, ask: String?,
                              accepts: (String) -> Decimal?) -> Result<(bid: Decimal?, ask: Decimal?), Refusal> {
        var sides: [Decimal?] = []
        for (field, text) in [("bid", bid), ("ask", ask)] {
            guard let text else {
                sides.append(nil)
                continue
            }
            guard let amount = accepts(text) else { return .failure(Refusal(field: field, text: text)) }
            sides.append(amount)
        }
        return .success((sides[0], sides[1]))
    }

    /// The `bid` and `ask` members of a quote's JSON as ``QuoteFormatter`` writes them (strings of exact
    /// decimals, each absent when unknown), read back by the fleet's codecs.
    /// - Returns: `nil` when one is there but not a string of a decimal above zero: no quote then.
    package static func decode(from object: JSONObject) -> (bid: Decimal?, ask: Decimal?)? {
        var texts: [String?] = []
        for key in ["bid", "ask"] {
            switch object[key] {
            case nil: texts.append(nil)
            case .string(let text)?: texts.append(text)
            default: return nil
            }
        }
        return try? check(bid: texts[0], ask: texts[1], accepts: positive).get()
    }

    /// `text` as an amount when it is a decimal above zero: the stream's rule, and the fleet's.
    package static func positive(_ text: String) -> Decimal? {
        DecimalAmount.parse(text).flatMap { $0 > 0 ? $0 : nil }
    }

    /// ``texts(of:size:)`` checked by ``check(bid:ask:accepts:)``.
    static func read(_ quote: ph_quote, size: Int, accepts: (String) -> Decimal?) -> Result<(bid: Decimal?, ask: Decimal?), Refusal> {
        let (bid, ask) = texts(of: quote, size: size)
        return check(bid: bid, ask: ask, accepts: accepts)
    }
}
