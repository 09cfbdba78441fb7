import FoundationEssentials
import ProviderABI

/// A pair no provider quotes, made from two that are quoted through a bridge currency: the
/// arithmetic, exact where it can be, and the quote it makes. The service finds the legs
/// (`QuoteService+CrossRates.swift`); docs/quotes.md#cross-rates is the user's page.
package enum CrossRate {
    /// The significant digits a division keeps, rounded half-even: 18.
    package static let significantDigits = 18
    /// What a derived quote says as its `provider`.
    package static let provider = "cross"

    /// How the legs make the pair, for ASSET-CURRENCY through BRIDGE.
    enum Shape: Equatable {
        /// ASSET-BRIDGE × BRIDGE-CURRENCY: exact.
        case product
        /// ASSET-BRIDGE ÷ CURRENCY-BRIDGE: rounded.
        case quotient
        /// 1 ÷ CURRENCY-ASSET, when the asset is the bridge: one leg, rounded.
        case inverse
    }

    /// `a × b`, exact; rounded half-even to `Decimal`'s 38 significant digits only when the exact
    /// product has more (two factors of at most 19 digits each never do). `nil` when out of `Decimal`'s range.
    package static func product(_ a: Decimal, _ b: Decimal) -> Decimal? {
        ExactDecimal(a).multiplied(by: ExactDecimal(b)).decimal
    }

    /// `a ÷ b` rounded half-even to ``significantDigits`` significant digits; `nil` when `b` is zero
    /// or the quotient is out of `Decimal`'s range.
    package static func quotient(_ a: Decimal, _ b: Decimal) -> Decimal? {
        ExactDecimal(a).divided(by: ExactDecimal(b), significantDigits: significantDigits)?.decimal
    }

    /// The quote for `asset`-`currency` from its legs: `first` is ASSET-BRIDGE (`nil` for ``Shape/inverse``),
    /// `second` is BRIDGE-CURRENCY (``Shape/product``), CURRENCY-BRIDGE (``Shape/quotient``) or
    /// CURRENCY-ASSET (``Shape/inverse``).
    ///
    /// The bid sells the asset: the bids of a product, the first bid over the second's ask for a quotient;
    /// the ask likewise; each only when both sides are known. The time is the older leg's, the status
    /// the worse one's (`stale` over `live`; `nil` when neither leg has one).
    /// - Returns: the quote, or why there is none (a zero divisor, a result beyond `Decimal`).
    static func quote(asset: String, currency: String, first: Quote?, second: Quote, shape: Shape) -> Result<Quote, CrossRateError> {
        func combine(_ a: Decimal?, _ b: Decimal?) -> Decimal? {
            guard let b else { return nil }
            switch shape {
            case .product: return a.flatMap { product($0, b) }
            case .quotient: return a.flatMap { quotient($0, b) }
            case .inverse: return quotient(1, b)
            }
        }
        let pair = "\(asset)-\(currency)"
        guard let amount = combine(first?.amount, second.amount) else {
            let divisor = shape != .product && second.amount.isZero
            return .failure(CrossRateError(divisor ? "\(second.asset)-\(second.currency) is 0" : "\(pair) is beyond the range of a decimal"))
        }
        let legs = [first, second].compactMap { $0 }
        var quote = Quote(asset: asset, currency: currency, amount: amount, provider: provider,
                          timestamp: legs.map(\.timestamp).min() ?? second.timestamp)
        // Selling the asset for the bridge, then the bridge for the currency: a leg divided by (CURRENCY-BRIDGE,
        // or CURRENCY-ASSET) is a purchase of the currency, at that leg's ask.
        quote.bid = shape == .product ? combine(first?.bid, second.bid) : combine(first?.bid, second.ask)
        quote.ask = shape == .product ? combine(first?.ask, second.ask) : combine(first?.ask, second.bid)
        quote.status = worse(legs.map(\.status))
        quote.derivedFrom = legs
        return .success(quote)
    }

    /// The worse of the statuses known: `stale` over `live`; `nil` when none is known.
    static func worse(_ statuses: [QuoteStatus?]) -> QuoteStatus? {
        if statuses.contains(.stale) { return .stale }
        return statuses.contains(.live) ? .live : nil
    }
}

/// Why legs that were both quoted make no cross rate.
struct CrossRateError: Error, Equatable, CustomStringConvertible {
    /// One phrase naming what is wrong.
    var description: String

    init(_ description: String) { self.description = description }
}
