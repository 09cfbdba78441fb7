import FoundationEssentials
import PriceHostCore
import ProviderABI

/// `serve`'s webhooks: the top-level `webhooks` list of `plugins.json`, read when the file is read.
///
/// ```json
/// "webhooks": [{"url": "http://…", "asset": "BTC", "deviationBps": 50, "heartbeatSeconds": 3600, "secret": "${HOOK_SECRET}"}]
/// ```
package struct WebhookSettings: ConfigSection, Equatable {
    /// One webhook.
    package struct Hook: Sendable, Equatable {
        /// `url`: an absolute `http://` or `https://` URL, POSTed to.
        package var url: String
        /// `asset`, `currency` (default: the config's `defaultCurrency`, as `/v1/stream`'s).
        package var asset: String
        package var currency: String?
        /// `intervalSeconds`: how often the asset is fetched when no feed pushes it (0.1 to 86400; default 5), as `/v1/stream`'s `interval`.
        package var intervalMilliseconds = 5_000
        /// `deviationBps`, `heartbeatSeconds`: the webhook's ``DeliveryRule``.
        package var rule = DeliveryRule()
        /// `secret`: the HMAC-SHA256 key of `X-Pricehost-Signature`; `${VAR}` is substituted. Without one, posts are unsigned.
        package var secret: String?
    }

    package var hooks: [Hook] = []
    /// Why a `secret` could not be read (its `${VAR}` is not set): `serve` refuses to start, while
    /// other commands, which post nothing, are not stopped by a secret only the service's environment holds.
    package var secretProblem: JSONShapeError?

    package static let key = "webhooks"
    /// The keys of one webhook.
    package static let keys = ["url", "asset", "currency", "intervalSeconds", "deviationBps", "heartbeatSeconds", "secret"]
    /// Webhooks at most.
    static let maximumHooks = 100

    package init() {}

    package static func read(_ section: JSONCursor, environment: [String: String]) throws(JSONShapeError) -> WebhookSettings {
        var settings = WebhookSettings()
        let elements = try section.elements()
        guard elements.count <= maximumHooks else { throw section.error("at most \(maximumHooks) webhooks") }
        for element in elements {
            var problem: JSONShapeError?
            settings.hooks.append(try hook(element, environment: environment, secretProblem: &problem))
            settings.secretProblem = settings.secretProblem ?? problem
        }
        return settings
    }

    private static func hook(_ cursor: JSONCursor, environment: [String: String],
                             secretProblem: inout JSONShapeError?) throws(JSONShapeError) -> Hook {
        try cursor.rejectUnknownKeys(allowed: keys)
        let urlCursor = try cursor.member("url")
        let url = try urlCursor.string()
        guard isHTTPURL(url) else { throw urlCursor.error("expected an absolute http:// or https:// URL with a host, found \(JSONValue.quoted(url))") }
        let assetCursor = try cursor.member("asset")
        let assetText = try assetCursor.string()
        guard let asset = AssetCode.normalized(assetText) else {
            throw assetCursor.error("\(JSONValue.quoted(assetText)) is not an asset code (2 to 10 letters or digits)")
        }
        var hook = Hook(url: url, asset: asset)
        if let value = try cursor.optionalMember("currency") {
            let text = try value.string()
            guard let currency = AssetCode.normalized(text) else {
                throw value.error("\(JSONValue.quoted(text)) is not a currency code (2 to 10 letters or digits)")
            }
            hook.currency = currency
        }
        if let value = try cursor.optionalMember("intervalSeconds") {
            guard case .number(let text) = value.value, let milliseconds = Durations.milliseconds(text), (100...86_400_000).contains(milliseconds) else {
                throw value.error("expected a number of seconds from 0.1 to 86400 (at most 3 decimals)")
            }
            hook.intervalMilliseconds = milliseconds
        }
        if let value = try cursor.optionalMember("deviationBps") {
            guard case .number(let text) = value.value, let bps = DeliveryRule.bps(text) else {
                throw value.error("expected a number of basis points from 0 to 10000")
            }
            hook.rule.deviationBps = bps
        }
        if let value = try cursor.optionalMember("heartbeatSeconds") {
            guard case .number(let text) = value.value, let heartbeat = DeliveryRule.seconds(text, in: DeliveryRule.heartbeatRange) else {
                throw value.error("expected a number of seconds from 1 to 86400 (at most 3 decimals)")
            }
            hook.rule.heartbeat = heartbeat
        }
        if let value = try cursor.optionalMember("secret") {
            let text = try value.string()
            do throws(JSONShapeError) {
                let secret = try EnvironmentSubstitution.substitute(text, at: value, environment: environment)
                guard !secret.isEmpty else { throw value.error("must not be empty (remove the key to post unsigned)") }
                hook.secret = secret
            } catch {
                secretProblem = error
            }
        }
        return hook
    }

    /// `http://` or `https://`, a host, and no space, control character or fragment.
    static func isHTTPURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        guard let scheme = ["http://", "https://"].first(where: { lowered.hasPrefix($0) }), text.utf8.count <= 2048,
              text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }), !text.contains("#") else { return false }
        let authority = lowered.dropFirst(scheme.count).prefix { $0 != "/" && $0 != "?" }
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        if hostAndPort.hasPrefix("[") { return hostAndPort.contains("]") && hostAndPort.count > 2 }
        return !hostAndPort.prefix { $0 != ":" }.isEmpty
    }
}

extension Config {
    /// `webhooks`: none when the file has none.
    package var webhooks: WebhookSettings { section(WebhookSettings.self) ?? WebhookSettings() }
}
