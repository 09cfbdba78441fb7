@testable import PriceHostCore
@testable import PriceHostService
import ProviderABI
import Testing

/// The top-level `webhooks` list of `plugins.json`.
struct WebhookSettingsTests {
    let path = "/srv/pricehost/plugins.json"

    func parse(_ webhooks: String, environment: [String: String] = [:]) throws(ConfigError) -> WebhookSettings {
        try ConfigParser.parse(Array(#"{"webhooks": \#(webhooks)}"#.utf8), path: path, environment: environment,
                               sections: [ServeSettings.self, WebhookSettings.self]).webhooks
    }

    @Test func theIssuesExampleIsRead() throws {
        let settings = try parse(#"[{"url": "http://hooks.example/p", "asset": "btc", "deviationBps": 50, "heartbeatSeconds": 3600, "secret": "${HOOK_SECRET}"}]"#,
                                 environment: ["HOOK_SECRET": "k"])
        var hook = WebhookSettings.Hook(url: "http://hooks.example/p", asset: "BTC")
        hook.rule = DeliveryRule(deviationBps: 50, heartbeat: .seconds(3600))
        hook.secret = "k"
        #expect(settings.hooks == [hook])
        #expect(settings.secretProblem == nil)
    }

    @Test func noKeyIsNoWebhook() throws {
        let config = try ConfigParser.parse(Array("{}".utf8), path: path, environment: [:], sections: [WebhookSettings.self])
        #expect(config.webhooks.hooks.isEmpty)
    }

    @Test(arguments: [
        (#"[{"url": "ftp://x/", "asset": "BTC"}]"#, #"webhooks[0].url: expected an absolute http:// or https:// URL with a host, found "ftp://x/""#),
        (#"[{"url": "http:///p", "asset": "BTC"}]"#, #"webhooks[0].url: expected an absolute http:// or https:// URL with a host, found "http:///p""#),
        (#"[{"asset": "BTC"}]"#, "webhooks[0].url: missing"),
        (#"[{"url": "http://h/", "asset": "B"}]"#, #"webhooks[0].asset: "B" is not an asset code (2 to 10 letters or digits)"#),
        (#"[{"url": "http://h/", "asset": "BTC"}, {"url": "http://h/", "asset": "ETH", "deviationBps": -1}]"#,
         "webhooks[1].deviationBps: expected a number of basis points from 0 to 10000"),
        (#"[{"url": "http://h/", "asset": "BTC", "heartbeatSeconds": 0.5}]"#,
         "webhooks[0].heartbeatSeconds: expected a number of seconds from 1 to 86400 (at most 3 decimals)"),
        (#"[{"url": "http://h/", "asset": "BTC", "deviationBps": "25"}]"#, "webhooks[0].deviationBps: expected a number of basis points from 0 to 10000"),
        (#"[{"url": "http://h/", "asset": "BTC", "heartbeat": 5}]"#,
         "webhooks[0].heartbeat: unknown key; expected one of: url, asset, currency, intervalSeconds, deviationBps, heartbeatSeconds, secret"),
        (#"{"url": "http://h/"}"#, "webhooks: expected an array, found an object"),
    ])
    func aBadWebhookIsRefusedNamingItsKey(webhooks: String, reason: String) throws {
        let error = try #require(throws: ConfigError.self) { try parse(webhooks) }
        #expect(error.description.contains(reason))
    }

    @Test func anUnsetSecretVariableIsServesProblemNotTheConfigs() throws {
        let settings = try parse(#"[{"url": "https://h/", "asset": "BTC", "secret": "${HOOK_SECRET}"}]"#)
        #expect(settings.hooks.first?.secret == nil)
        #expect(settings.secretProblem?.description == "webhooks[0].secret: environment variable HOOK_SECRET is not set")
    }
}
