import FoundationEssentials
import ProviderABI

/// Gemini's ticker answers: `{"bid": "37000.11", "ask": "37000.12", "last": "37000.12",
/// "volume": {"BTC": …, "USD": …, "timestamp": 1700000000000}}` on success (the
/// time in milliseconds, a number; `bid` and `ask` the best of the book, the quote's
/// bid and ask from ABI 1.4, each only when there); `{"result": "error", "reason":
/// "InvalidSymbol", "message": …}` for its errors.
public enum GeminiResponse {
    /// The reasons that mean Gemini has no such symbol: `not_found`, never retried.
    static let unknownSymbolReasons: Set<String> = ["InvalidSymbol"]

    /// The quote in `response`, or the error it carries.
    /// - Parameter now: the time of receipt, used when the answer has no `volume.timestamp`.
    /// - Throws: ``ProviderError``: `.notFound` for an unknown symbol; `.unavailable`
    ///   for 429 and 5xx, maintenance included (after the host's retries);
    ///   `.invalidResponse` for a 200 without a usable price, or with a `bid` or `ask` that is
    ///   there (not `null`) but not one.
    public static func quote(from response: HTTPResponse, for request: QuoteRequest, provider: String, now: Date = Date()) throws -> Quote {
        guard response.status == 200 else { throw error(from: response, for: request) }
        return try response.readJSON(for: request) { root in
            let amount = try root.member("last").positivePrice()
            let timestamp = try root.optionalMember("volume")?.optionalMember("timestamp")?.unixTimestamp(unit: .milliseconds) ?? now
            return Quote(asset: request.asset, currency: request.currency, amount: amount, provider: provider, timestamp: timestamp,
                         bid: try root.optionalMember("bid")?.positivePrice(), ask: try root.optionalMember("ask")?.positivePrice())
        }
    }

    /// The error a status other than 200 stands for: `InvalidSymbol (Supplied
    /// value 'zzzusd' is not a valid symbol); HTTP 400 for ZZZ-USD`.
    static func error(from response: HTTPResponse, for request: QuoteRequest) -> ProviderError {
        guard let root = try? JSONCursor(JSONParser.parse(response.body)), let reason = try? root.member("reason").string() else {
            return ProviderError.apiError(ProviderError.Code(httpStatus: response.status), response.bodyExcerpt, response: response, for: request)
        }
        let message = (try? root.member("message").string()).map { " (\($0))" } ?? ""
        let code = ProviderError.Code(httpStatus: response.status, unknownPair: unknownSymbolReasons.contains(reason))
        return ProviderError.apiError(code, reason + message, response: response, for: request)
    }
}
