import PriceHostCore
import ProviderABI

/// The parameters of `/v1/prices`, `/v1/stream`, `/v1/history` and the board's, checked as the command line checks
/// `--asset`, `--currency`, `--provider` and `--aggregate`; the message says what is wrong.
struct ServeQuery: Sendable, Equatable {
    /// How a routing error names where an unknown provider came from.
    static let providerSource = "the provider parameter"

    /// `asset`: codes, split at commas (the parameter may repeat), upper case, without repeats.
    package var assets: [String] = []
    /// `currency`.
    package var currency: String?
    /// `provider`: one, or several tried in order.
    package var providers: [String]?
    /// `aggregate=median`.
    package var aggregateMedian = false
    /// `interval` (streams), in milliseconds.
    package var intervalMilliseconds = 5_000
    /// `deviationBps`, `heartbeatSeconds`, `maxAgeSeconds` (streams).
    package var rule = DeliveryRule()
    /// `minutes` (history): how far back, 1 to ``QuoteHistory/maximumMinutes``.
    package var minutes = 15
    /// `maxAgeSeconds` as the quote service takes it (`/v1/prices`); a stream takes it in its ``rule``.
    var maxAge: MaxAge? { rule.maxAge.map { MaxAge(milliseconds: Int(Durations.milliseconds(of: $0)), name: "maxAgeSeconds") } }

    /// The parameters of a client's delivery rule (`/v1/stream`).
    static let deliveryParameters = ["deviationBps", "heartbeatSeconds", "maxAgeSeconds"]

    /// The most assets one request may ask for.
    static let maxAssets = 100

    /// A message for the client: the words every route's parameters share.
    typealias Problem = QueryParameter.Problem

    /// Reads `parameters`, which may be only those in `allowed`; `asset` is required unless `assetRequired` is false.
    /// - Parameter maximumMinutes: the most `minutes` may be: an hour from memory, more from the quote store.
    package static func parse(_ parameters: [(name: String, value: String)], allowed: [String],
                              assetRequired: Bool = true, maximumMinutes: Int = QuoteHistory.maximumMinutes) throws(Problem) -> ServeQuery {
        var query = ServeQuery()
        var seen = Set<String>()
        for (name, value) in parameters {
            guard allowed.contains(name) else { throw QueryParameter.unknown(name, allowed: allowed) }
            guard name == "asset" || seen.insert(name).inserted else { throw QueryParameter.repeated(name) }
            switch name {
            case "asset":
                for part in value.split(separator: ",", omittingEmptySubsequences: false) {
                    let code = try QueryParameter.asset(String(part))
                    if !query.assets.contains(code) { query.assets.append(code) }
                }
            case "currency":
                query.currency = try QueryParameter.currency(value)
            case "provider":
                var names: [String] = []
                for part in value.split(separator: ",", omittingEmptySubsequences: false) {
                    let provider = try QueryParameter.provider(String(part))
                    guard !names.contains(provider) else { throw Problem(message: "provider names \(JSONValue.quoted(provider)) twice") }
                    names.append(provider)
                }
                query.providers = names
            case "aggregate":
                try QueryParameter.aggregate(value)
                query.aggregateMedian = true
            case "minutes":
                guard (1...9).contains(value.utf8.count), value.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                      let minutes = Int(value), (1...maximumMinutes).contains(minutes) else {
                    throw Problem(message: "minutes must be a whole number from 1 to \(maximumMinutes), not \(JSONValue.quoted(value))")
                }
                query.minutes = minutes
            case "deviationBps":
                guard let bps = DeliveryRule.bps(value) else {
                    throw Problem(message: "deviationBps must be a number of basis points from 0 to 10000, not \(JSONValue.quoted(value))")
                }
                query.rule.deviationBps = bps
            case "heartbeatSeconds":
                guard let heartbeat = DeliveryRule.seconds(value, in: DeliveryRule.heartbeatRange) else {
                    throw Problem(message: "heartbeatSeconds must be a number of seconds from 1 to 86400 (at most 3 decimals), not \(JSONValue.quoted(value))")
                }
                query.rule.heartbeat = heartbeat
            case "maxAgeSeconds":
                // /v1/prices refuses an older quote; /v1/stream says its pair is stale instead (the same limit).
                guard let milliseconds = Durations.milliseconds(value), milliseconds > 0 else {
                    throw Problem(message: "maxAgeSeconds must be a number of seconds above 0, up to 999999 (at most 3 decimals), not \(JSONValue.quoted(value))")
                }
                query.rule.maxAge = .milliseconds(milliseconds)
            default: // interval
                guard let milliseconds = Durations.milliseconds(value), (100...86_400_000).contains(milliseconds) else {
                    throw Problem(message: "interval must be a number of seconds from 0.1 to 86400 (at most 3 decimals), not \(JSONValue.quoted(value))")
                }
                query.intervalMilliseconds = milliseconds
            }
        }
        guard !query.assets.isEmpty || !assetRequired else { throw Problem(message: "asset is required, e.g. ?asset=BTC,ETH") }
        guard query.assets.count <= maxAssets else { throw Problem(message: "at most \(maxAssets) assets per request") }
        return query
    }
}
