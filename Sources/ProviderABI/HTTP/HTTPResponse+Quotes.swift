import FoundationEssentials

/// What every market plugin does with an answer: read a 200's JSON, and turn
/// any other status into one line that names the API's own words.
extension HTTPResponse {
    /// Reads a 200 answer's JSON body with `read`.
    ///
    /// - Throws: ``ProviderError`` `.invalidResponse`, one line ending in the
    ///   pair: `200 with an empty body (BTC-USD)`, `200 with a body that is not
    ///   JSON: line 1, column 9: … (BTC-USD)`, or, for a ``JSONShapeError`` from
    ///   `read`, `200 with an unexpected shape: last: expected a string, found a
    ///   number (BTC-USD)`. Any other error from `read` is thrown as it is.
    public func readJSON<T>(for request: QuoteRequest, _ read: (JSONCursor) throws -> T) throws -> T {
        guard !body.isEmpty else { throw ProviderError.unusableAnswer("an empty body", for: request) }
        let root: JSONValue
        do {
            root = try JSONParser.parse(body)
        } catch {
            throw ProviderError.unusableAnswer("a body that is not JSON: \(error)", for: request)
        }
        do {
            return try read(JSONCursor(root))
        } catch let error as JSONShapeError {
            throw ProviderError.unusableAnswer("an unexpected shape: \(error)", for: request)
        }
    }

    /// The body as one printable line of at most 120 bytes: `body: <html>…`, or `no body`.
    public var bodyExcerpt: String {
        body.isEmpty ? "no body" : "body: " + ProviderText.oneLine(String(decoding: body.prefix(120), as: UTF8.self))
    }

    /// `; Retry-After: 30` when the answer carries one, else empty.
    public var retryAfterNote: String {
        header("retry-after").map { "; Retry-After: \(ProviderText.oneLine($0, limit: 40))" } ?? ""
    }
}

extension ProviderError {
    /// A 200 that carries no usable price: `200 with an empty body (BTC-USD)`.
    public static func unusableAnswer(_ reason: String, for request: QuoteRequest) -> ProviderError {
        ProviderError(.invalidResponse, "200 with \(ProviderText.oneLine(reason)) (\(request.pair))")
    }

    /// An API's own error, its words first: `InvalidSymbol (Supplied value is not
    /// a valid symbol); HTTP 400 for ZZZ-USD`, with `; Retry-After: N` when sent.
    /// - Parameter detail: the API's error as it says it; made one printable line
    ///   here, cut at 300 characters (the status and pair after it are never cut).
    public static func apiError(_ code: Code, _ detail: String, response: HTTPResponse, for request: QuoteRequest) -> ProviderError {
        ProviderError(code, "\(ProviderText.oneLine(detail, limit: 300)); HTTP \(response.status) for \(request.pair)\(response.retryAfterNote)")
    }
}

extension ProviderError.Code {
    /// The usual class of a status other than 200: 404 is `not_found`; 429 and
    /// 5xx (rate limits, maintenance) are `unavailable`; any other is `invalid_request`.
    /// - Parameter unknownPair: the API's own error says it has no such pair
    ///   (Gemini's `InvalidSymbol`, Binance's `-1121`): `not_found` for any 4xx
    ///   but 429. Under a rate limit or a server error the status decides, since
    ///   a server in trouble is no authority on what it lists.
    public init(httpStatus status: Int, unknownPair: Bool = false) {
        self = switch status {
        case 404: .notFound
        case 429, 500...599: .unavailable
        case 400...499 where unknownPair: .notFound
        default: .invalidRequest
        }
    }
}

extension JSONCursor {
    /// The value as a price above zero: a decimal string such as `"37000.12"`,
    /// or, with `acceptsNumber`, a JSON number read exactly from its text
    /// (`1.234e-05` is `0.00001234`).
    /// - Throws: ``JSONShapeError`` at this path: the wrong type, not a decimal
    ///   number, or not above zero.
    public func positivePrice(acceptsNumber: Bool = false) throws(JSONShapeError) -> Decimal {
        let amount: Decimal?
        let text: String
        switch value {
        case .number(let number) where acceptsNumber:
            text = number
            amount = DecimalAmount.parse(jsonNumber: number)
        default:
            text = try acceptsNumber ? numberMismatch() : string()
            amount = DecimalAmount.parse(text)
        }
        guard let amount else { throw error("not a decimal number: \(JSONValue.quoted(ProviderText.oneLine(text, limit: 60)))") }
        guard amount > 0 else { throw error("\(text) is not a positive price") }
        return amount
    }

    /// The value as a time counted from 1970 in `unit`: a JSON number, or a
    /// string of one (`"1700000000"`), as APIs send either.
    /// - Throws: ``JSONShapeError`` at this path when it is neither, or out of range.
    public func unixTimestamp(unit: UnixTimestamp.Unit) throws(JSONShapeError) -> Date {
        let text: String
        switch value {
        case .number(let number): text = number
        case .string(let string): text = string
        default: throw error("expected a number or a string, found \(value.kindDescription)")
        }
        guard let date = UnixTimestamp.parse(text, unit: unit) else {
            throw error("not a time in \(unit == .seconds ? "seconds" : "milliseconds") since 1970: \(JSONValue.quoted(ProviderText.oneLine(text, limit: 60)))")
        }
        return date
    }

    private func numberMismatch() throws(JSONShapeError) -> String {
        throw error("expected a number, found \(value.kindDescription)")
    }
}
