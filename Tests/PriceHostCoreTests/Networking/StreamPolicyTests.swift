@testable import PriceHostCore
import ProviderABI
import Testing

/// The stream keys of `providers.NAME`: read, checked, and removed before the plugin sees its settings.
struct StreamPolicyTests {
    func parse(_ settings: String) throws(ConfigError) -> Config {
        try ConfigParser.parse(Array(#"{"providers": {"coinbase": \#(settings)}}"#.utf8), path: "/srv/plugins.json", environment: [:])
    }

    @Test func theKeysAreReadAndRemovedFromThePluginsSettings() throws {
        let config = try parse("""
            {"stream": true, "streamURL": "wss://127.0.0.1:9443/ws", "staleAfterSeconds": 1.5, "fallbackIntervalSeconds": 0.3,
             "maxMessageBytes": 2048, "streamLifetimeSeconds": 2, "channel": "ticker"}
            """)
        let stream = config.policy(for: "coinbase").stream
        #expect(stream.enabled && stream.url == "wss://127.0.0.1:9443/ws")
        #expect(stream.staleAfter == .milliseconds(1500) && stream.fallbackInterval == .milliseconds(300))
        #expect(stream.maxMessageBytes == 2048 && stream.lifetime == .seconds(2))
        #expect(config.providerSettings["coinbase"]?.serialized == #"{"channel":"ticker"}"#)
    }

    @Test func theDefaults() throws {
        let stream = try parse("{}").policy(for: "coinbase").stream
        #expect(!stream.enabled && stream.url == nil && stream.lifetime == nil)
        #expect(stream.staleAfter == .seconds(5) && stream.fallbackInterval == .seconds(2) && stream.maxMessageBytes == 1 << 20)
    }

    /// A venue whose heartbeat is as slow as the default staleness (Gemini's 5 s) is given twice
    /// its heartbeat, unless the config says otherwise.
    @Test func theDefaultStalenessAllowsTwoOfTheVenuesHeartbeats() throws {
        let defaulted = try parse("{}").policy(for: "coinbase").stream
        #expect(defaulted.staleAfter(heartbeat: nil) == .seconds(5))
        #expect(defaulted.staleAfter(heartbeat: .seconds(1)) == .seconds(5))
        #expect(defaulted.staleAfter(heartbeat: .seconds(5)) == .seconds(10))
        let configured = try parse(#"{"staleAfterSeconds": 3}"#).policy(for: "coinbase").stream
        #expect(configured.staleAfter(heartbeat: .seconds(5)) == .seconds(3))
    }

    @Test(arguments: [
        (#"{"stream": "yes"}"#, "providers.coinbase.stream: expected true or false"),
        (#"{"streamURL": "https://ws-feed.exchange.coinbase.com"}"#, "providers.coinbase.streamURL: expected a ws:// or wss:// URL"),
        (#"{"streamURL": "ws://"}"#, "providers.coinbase.streamURL: expected a ws:// or wss:// URL"),
        (#"{"staleAfterSeconds": 0}"#, "providers.coinbase.staleAfterSeconds: expected a number of seconds from 0.1 to 3600"),
        (#"{"fallbackIntervalSeconds": "2"}"#, "providers.coinbase.fallbackIntervalSeconds: expected a number of seconds from 0.1 to 3600"),
        (#"{"maxMessageBytes": 10}"#, "providers.coinbase.maxMessageBytes"),
        (#"{"streamLifetimeSeconds": 0.5}"#, "providers.coinbase.streamLifetimeSeconds: expected a number of seconds from 1 to 604800"),
    ])
    func aBadValueIsAConfigErrorNamingTheKey(settings: String, message: String) {
        #expect {
            _ = try parse(settings)
        } throws: { error in
            "\(error)".contains(message)
        }
    }
}
