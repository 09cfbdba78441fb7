import PriceHostCore
import ProviderABI

extension ServeRouter {
    /// `POST /`: a Chainlink external adapter. The request is
    /// `{"id":"1","data":{"base":"ETH","quote":"USD"}}` (`from`/`to` and `coin`/`market` work too);
    /// success is `{"jobRunID":"1","data":{"result":"3120.48"},"result":"3120.48","statusCode":200}`,
    /// failure `{"jobRunID":"1","status":"errored","error":{"name":…,"message":…},"statusCode":500}`
    /// (400 with `AdapterInputError` for a request we cannot read).
    /// The quote is fetched on the cooperative pool (``ServeReply/later(_:)``) unless the cache holds it.
    func chainlink(_ request: ServeRequest, _ generation: ServeGeneration) -> ServeReply {
        var jobRunID = "1"
        let input: (asset: String, currency: String?)
        do {
            let root = JSONCursor(try JSONParser.parse(request.body))
            if let id = try root.optionalMember("id") {
                switch id.value {
                case .string(let text): jobRunID = text
                case .number(let text): jobRunID = text
                default: throw id.error("expected a string or a number")
                }
            }
            let data = try root.member("data")
            guard let base = try Self.firstMember(of: data, ["base", "from", "coin"]) else {
                throw data.error("needs base (or from, or coin): the asset code")
            }
            let quote = try Self.firstMember(of: data, ["quote", "to", "market"])
            guard let asset = AssetCode.normalized(try base.string()) else {
                throw base.error("not an asset code (2 to 10 letters or digits)")
            }
            var currency: String?
            if let quote {
                guard let code = AssetCode.normalized(try quote.string()) else {
                    throw quote.error("not a currency code (2 to 10 letters or digits)")
                }
                currency = code
            }
            input = (asset, currency)
        } catch {
            return .response(Self.errored(jobRunID, name: "AdapterInputError", message: "\(error)", status: 400), route: "chainlink")
        }
        let currency = input.currency ?? generation.config.defaultCurrency
        let route: QuoteService.Route
        do {
            route = try generation.service.route(asset: input.asset, explicitProviders: nil)
        } catch {
            return .response(Self.errored(jobRunID, name: "AdapterError", message: error.description, status: 500), route: "chainlink")
        }
        let service = generation.service
        if let cached = service.cachedQuotes([route], currency: currency) {
            return .response(Self.chainlinkAnswer(cached[0], jobRunID: jobRunID), route: "chainlink")
        }
        let id = jobRunID
        return .later {
            .response(Self.chainlinkAnswer(await service.fetch([route], currency: currency)[0], jobRunID: id), route: "chainlink")
        }
    }

    /// The adapter's answer for `result`.
    private static func chainlinkAnswer(_ result: Result<Quote, any Error>, jobRunID: String) -> ServeResponse {
        switch result {
        case .success(let quote):
            let amount = DecimalAmount.format(quote.amount)
            return .json(200, JSONValue.object(JSONObject([
                ("jobRunID", .string(jobRunID)),
                ("data", .object(JSONObject([("result", .string(amount))]))),
                ("result", .string(amount)),
                ("statusCode", .number("200")),
            ])).serialized)
        case .failure(let error):
            return errored(jobRunID, name: "AdapterError", message: "\(error)", status: 500)
        }
    }

    private static func firstMember(of object: JSONCursor, _ keys: [String]) throws(JSONShapeError) -> JSONCursor? {
        for key in keys {
            if let member = try object.optionalMember(key) { return member }
        }
        return nil
    }

    private static func errored(_ jobRunID: String, name: String, message: String, status: Int) -> ServeResponse {
        .json(status, JSONValue.object(JSONObject([
            ("jobRunID", .string(jobRunID)),
            ("status", .string("errored")),
            ("error", .object(JSONObject([("name", .string(name)), ("message", .string(message))]))),
            ("statusCode", .number(String(status))),
        ])).serialized)
    }
}
