import FoundationEssentials
import ProviderABI

/// Coinbase's spot-price answers: `{"data":{"base","currency","amount"}}` on
/// success, `{"errors":[{"id","message"}]}` with a 4xx or 5xx.
public enum CoinbaseResponse {
    /// The quote in `response`, or the error it carries.
    /// - Throws: ``ProviderError`` whose message names the status, Coinbase's
    ///   own error id and message, and the pair, e.g.
    ///   `404 not_found: Invalid base currency (XRP-USD)`.
    public static func quote(from response: HTTPResponse, for request: QuoteRequest, provider: String, now: Date = Date()) throws -> Quote {
        guard response.status == 200 else { throw error(from: response, for: request) }
        func invalid(_ reason: String) -> ProviderError {
            // The reason may quote the body (a code, a key): kept one clean line there.
            ProviderError.unusableAnswer(reason, for: request)
        }
        guard !response.body.isEmpty else { throw invalid("an empty body") }
        let root: JSONValue
        do {
            root = try JSONParser.parse(response.body)
        } catch {
            throw invalid("a body that is not JSON: \(error)")
        }
        do {
            let data = try JSONCursor(root).member("data")
            let base = try data.member("base").string()
            let currency = try data.member("currency").string()
            // ASCII rules only: full Unicode upper-casing would take "ſol" for SOL.
            guard AssetCode.normalized(base) == request.asset, AssetCode.normalized(currency) == request.currency else {
                throw invalid("a price for \(base)-\(currency)")
            }
            let amountCursor = try data.member("amount")
            let text = try amountCursor.string()
            guard let amount = DecimalAmount.parse(text) else {
                throw invalid("data.amount that is not a decimal number: \(JSONValue.quoted(text))")
            }
            guard amount > 0 else { throw invalid("data.amount \(text), which is not a positive price") }
            return Quote(asset: request.asset, currency: request.currency, amount: amount, provider: provider, timestamp: now)
        } catch let error as JSONShapeError {
            throw invalid("an unexpected shape: \(error)")
        }
    }

    /// The error a non-200 answer stands for.
    static func error(from response: HTTPResponse, for request: QuoteRequest) -> ProviderError {
        let code: ProviderError.Code = switch response.status {
        case 404: .notFound
        case 429, 500...599: .unavailable
        default: .invalidRequest
        }
        var detail = "no error details"
        if let root = try? JSONParser.parse(response.body),
           let first = try? JSONCursor(root).member("errors").elements().first {
            let id = (try? first.member("id").string()) ?? "error"
            let message = (try? first.member("message").string()) ?? "no message"
            detail = "\(ProviderText.oneLine(id)): \(ProviderText.oneLine(message))"
        } else if !response.body.isEmpty {
            detail = response.bodyExcerpt
        }
        return ProviderError(code, "\(response.status) \(detail) (\(request.pair))")
    }
}
