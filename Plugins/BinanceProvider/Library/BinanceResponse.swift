import FoundationEssentials
import ProviderABI

/// Binance's price answers: `{"symbol": "BTCUSDT", "price": "37000.12000000"}`
/// on success (no time: the time of receipt is used); `{"code": -1121, "msg":
/// "Invalid symbol."}` for its errors; 418 and 429 with `Retry-After` when
/// rate limited; 451 from a location Binance does not serve.
public enum BinanceResponse {
    /// Binance's error codes that mean it has no such symbol: `not_found`, never retried.
    static let unknownSymbolCodes: Set<String> = ["-1121"]

    /// The quote in `response`, or the error it carries.
    /// - Parameters:
    ///   - symbol: the symbol asked, e.g. `BTCUSDT`; the answer must be for it.
    ///   - now: the time of receipt, which the quote carries.
    /// - Throws: ``ProviderError``: `.notFound` for an unknown symbol;
    ///   `.unavailable` for 418, 429, 451 and 5xx; `.invalidResponse` for a 200
    ///   without a usable price.
    public static func quote(from response: HTTPResponse, for request: QuoteRequest, symbol: String, provider: String,
                             now: Date = Date()) throws -> Quote {
        guard response.status == 200 else { throw error(from: response, for: request, symbol: symbol) }
        return try response.readJSON(for: request) { root in
            let answered = try root.member("symbol")
            guard try answered.string() == symbol else {
                throw answered.error("a price for \(JSONValue.quoted(ProviderText.oneLine(try answered.string(), limit: 40))), not \(symbol)")
            }
            let amount = try root.member("price").positivePrice()
            return Quote(asset: request.asset, currency: request.currency, amount: amount, provider: provider, timestamp: now)
        }
    }

    /// The best bid and ask in a `bookTicker` answer: `{"symbol": "BTCUSDT", "bidPrice": "64000.09000000",
    /// "bidQty": …, "askPrice": "64000.10000000", "askQty": …}`, each by ``side(_:)``.
    /// - Throws: ``ProviderError`` as ``quote(from:for:symbol:provider:now:)``, for the book's answer.
    public static func book(from response: HTTPResponse, for request: QuoteRequest, symbol: String) throws -> (bid: Decimal?, ask: Decimal?) {
        guard response.status == 200 else { throw error(from: response, for: request, symbol: symbol) }
        return try response.readJSON(for: request) { root in
            let answered = try root.member("symbol")
            guard try answered.string() == symbol else {
                throw answered.error("a book for \(JSONValue.quoted(ProviderText.oneLine(try answered.string(), limit: 40))), not \(symbol)")
            }
            let bid = try side(root.optionalMember("bidPrice")).flatMap(DecimalAmount.parse(_:))
            let ask = try side(root.optionalMember("askPrice")).flatMap(DecimalAmount.parse(_:))
            return (bid, ask)
        }
    }

    /// A best bid or ask as Binance writes it, a decimal string (`"64000.09000000"`), as written; `nil`
    /// when there is none: the field is absent or `null`, or zero, which is how Binance shows a side
    /// with no orders.
    /// - Throws: ``JSONShapeError`` when it is there but not a decimal string of zero or more.
    public static func side(_ cursor: JSONCursor?) throws(JSONShapeError) -> String? {
        guard let cursor else { return nil }
        let text = try cursor.string()
        guard let amount = DecimalAmount.parse(text), amount >= 0 else {
            throw cursor.error("not a decimal number of zero or more: \(JSONValue.quoted(ProviderText.oneLine(text, limit: 60)))")
        }
        return amount > 0 ? text : nil
    }

    /// The error a status other than 200 stands for: `-1121 Invalid symbol.
    /// (symbol BTCXYZ); HTTP 400 for BTC-XYZ`.
    static func error(from response: HTTPResponse, for request: QuoteRequest, symbol: String) -> ProviderError {
        var apiCode: String?
        var detail = response.bodyExcerpt
        if let root = try? JSONCursor(JSONParser.parse(response.body)), let message = try? root.member("msg").string() {
            if case .number(let number)? = try? root.member("code").value { apiCode = number }
            // Cut here, so that what is said around it (the way out of a 451) survives.
            detail = [apiCode, ProviderText.oneLine(message, limit: 120)].compactMap { $0 }.joined(separator: " ")
        }
        detail += " (symbol \(symbol))"
        let code: ProviderError.Code
        switch response.status {
        case 418:
            code = .unavailable
            detail = "this IP is banned for now after too many requests: \(detail)"
        case 451:
            code = .unavailable
            detail = "Binance does not serve this location (Binance.US is baseURL https://api.binance.us): \(detail)"
        default:
            code = ProviderError.Code(httpStatus: response.status, unknownPair: apiCode.map(unknownSymbolCodes.contains) == true)
        }
        return ProviderError.apiError(code, detail, response: response, for: request)
    }
}
