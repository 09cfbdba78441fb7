import FoundationEssentials
import ProviderABI

/// Bitstamp's ticker answers: `{"timestamp": "1700000000", "last": "37000.12", "bid":
/// "37000.11", "ask": "37000.12", …}` on success (the time in seconds, as a string; `bid`
/// and `ask` the best of the book, the quote's bid and ask from ABI 1.4, each only when
/// there); a 404 for a pair Bitstamp does not list; `{"status": "error", "reason": …,
/// "code": …}` for its errors.
public enum BitstampResponse {
    /// The quote in `response`, or the error it carries.
    /// - Parameter now: the time of receipt, used when the answer has no `timestamp`.
    /// - Throws: ``ProviderError``: `.notFound` for an unknown pair, never retried;
    ///   `.unavailable` for 429 and 5xx (after the host's retries);
    ///   `.invalidResponse` for a 200 without a usable price, or with a `bid` or `ask` that is
    ///   there (not `null`) but not one.
    public static func quote(from response: HTTPResponse, for request: QuoteRequest, provider: String, now: Date = Date()) throws -> Quote {
        guard response.status == 200 else { throw error(from: response, for: request) }
        return try response.readJSON(for: request) { root in
            let amount = try root.member("last").positivePrice()
            let timestamp = try root.optionalMember("timestamp")?.unixTimestamp(unit: .seconds) ?? now
            return Quote(asset: request.asset, currency: request.currency, amount: amount, provider: provider, timestamp: timestamp,
                         bid: try root.optionalMember("bid")?.positivePrice(), ask: try root.optionalMember("ask")?.positivePrice())
        }
    }

    /// The error a status other than 200 stands for, in Bitstamp's words when it sent some.
    static func error(from response: HTTPResponse, for request: QuoteRequest) -> ProviderError {
        let code = ProviderError.Code(httpStatus: response.status)
        var detail = apiDetail(response.body) ?? response.bodyExcerpt
        if response.status == 404 {
            detail = "no pair \(BitstampProviderPlugin.market(for: request)) at Bitstamp (\(detail))"
        }
        return ProviderError.apiError(code, detail, response: response, for: request)
    }

    /// `API0005 Rate limit exceeded` from Bitstamp's JSON error, or `nil` when the body is not one.
    static func apiDetail(_ body: [UInt8]) -> String? {
        guard let root = try? JSONCursor(JSONParser.parse(body)) else { return nil }
        // `reason` is a string, or an object of lists of strings per field.
        let reason: String? = if let text = try? root.member("reason").string() {
            text
        } else if let fields = try? root.member("reason").members() {
            fields.map { "\($0.key): \((try? $0.cursor.elements().compactMap { try? $0.string() }.joined(separator: " ")) ?? "")" }
                .joined(separator: "; ")
        } else {
            try? root.member("message").string()
        }
        let code = try? root.member("code").string()
        let words = [code, reason].compactMap { $0 }.filter { !$0.isEmpty }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }
}
