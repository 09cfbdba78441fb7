import FoundationEssentials
import ProviderABI

/// CoinGecko's simple price answers: `{"bitcoin": {"usd": 37000.12,
/// "last_updated_at": 1700000000}}` on success, the price a JSON number (read
/// from its exact text, exponent included) and the time in seconds; `{}` for an
/// unknown id and `{"bitcoin": {}}` for an unknown currency;
/// `{"status": {"error_code": 429, "error_message": …}}` or `{"error": …}` for its errors.
public enum CoinGeckoResponse {
    /// The quote in `response`, or the error it carries.
    /// - Parameters:
    ///   - id: the CoinGecko id asked, e.g. `bitcoin`.
    ///   - now: the time of receipt, used when the answer has no `last_updated_at`.
    /// - Throws: ``ProviderError``: `.notFound` for an id or currency CoinGecko
    ///   does not know; `.unavailable` for 429 and 5xx; `.invalidResponse` for a
    ///   200 without a usable price.
    public static func quote(from response: HTTPResponse, for request: QuoteRequest, id: String, provider: String,
                             now: Date = Date()) throws -> Quote {
        guard response.status == 200 else { throw error(from: response, for: request) }
        let currency = request.currency.lowercased()
        return try response.readJSON(for: request) { root in
            guard let coin = try root.optionalMember(id) else {
                throw ProviderError(.notFound, "CoinGecko has no coin with the id \(id) (\(request.pair))")
            }
            guard let price = try coin.optionalMember(currency) else {
                throw ProviderError(.notFound, "CoinGecko has no price of \(id) in \(currency) (\(request.pair))")
            }
            let amount = try price.positivePrice(acceptsNumber: true)
            let timestamp = try coin.optionalMember("last_updated_at")?.unixTimestamp(unit: .seconds) ?? now
            return Quote(asset: request.asset, currency: request.currency, amount: amount, provider: provider, timestamp: timestamp)
        }
    }

    /// The error a status other than 200 stands for: `429 You've exceeded the
    /// Rate Limit…; HTTP 429 for BTC-USD`.
    static func error(from response: HTTPResponse, for request: QuoteRequest) -> ProviderError {
        var detail = response.bodyExcerpt
        if let root = try? JSONCursor(JSONParser.parse(response.body)) {
            if let status = try? root.member("status"), let message = try? status.member("error_message").string() {
                let code: String? = if case .number(let number)? = try? status.member("error_code").value { number } else { nil }
                detail = [code, message].compactMap { $0 }.joined(separator: " ")
            } else if let message = try? root.member("error").string() {
                detail = message
            }
        }
        return ProviderError.apiError(ProviderError.Code(httpStatus: response.status), detail, response: response, for: request)
    }
}
