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
            // The reason may quote the body (a code, a key): keep the message one clean line.
            ProviderError(.invalidResponse, "200 with \(printable(reason)) (\(request.pair))")
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
            detail = "\(printable(id)): \(printable(message))"
        } else if !response.body.isEmpty {
            detail = "body: \(printable(String(decoding: response.body.prefix(120), as: UTF8.self)))"
        }
        return ProviderError(code, "\(response.status) \(detail) (\(request.pair))")
    }

    /// `text` on one line, without control characters, at most 200 characters.
    static func printable(_ text: String) -> String {
        let scalars = text.unicodeScalars.map { scalar -> Character in
            let value = scalar.value
            // C0, DEL, C1 (CSI among them) and the Unicode line and paragraph separators.
            return value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029 ? " " : Character(scalar)
        }
        let line = String(scalars)
        return line.count > 200 ? String(line.prefix(200)) + "…" : line
    }
}
