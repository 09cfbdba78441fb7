import ProviderABI

/// How the host streams one provider's feed: the stream keys of `providers.NAME`,
/// removed with the rest of ``ProviderPolicy/keys`` before the plugin sees its settings.
package struct StreamPolicy: Sendable, Equatable {
    /// `stream`: `serve` pushes this provider's prices from its feed (default false: it polls).
    package var enabled = false
    /// `streamURL`: the feed's `ws://` or `wss://` URL instead of the one the plugin names (tests point it at loopback).
    package var url: String?
    /// `staleAfterSeconds`: silence this long, heartbeats included, makes the feed stale (0.1 to 3600; default 5,
    /// or twice the venue's heartbeat when that is longer: ``staleAfter(heartbeat:)``).
    package var staleAfter: Duration = Self.defaultStaleAfter
    /// Whether the config set `staleAfterSeconds`.
    package var staleAfterIsSet = false
    /// 5 s.
    package static let defaultStaleAfter: Duration = .seconds(5)
    /// `fallbackIntervalSeconds`: how often REST polls while the feed is stale (0.1 to 3600; default 2).
    package var fallbackInterval: Duration = .seconds(2)
    /// `maxMessageBytes`: the largest feed message accepted (1024 to 67108864; default 1 MiB).
    package var maxMessageBytes = 1 << 20
    /// `streamLifetimeSeconds`: hand a connection over to a new one after this long, instead of the
    /// venue's own limit (Binance's 24 h); for tests, which cannot wait a day (1 to 604800; default the venue's).
    package var lifetime: Duration?

    /// The keys read here.
    package static let keys = ["stream", "streamURL", "staleAfterSeconds", "fallbackIntervalSeconds", "maxMessageBytes",
                               "streamLifetimeSeconds"]

    /// The defaults.
    package init() {}

    /// Reads the stream keys from a provider's settings object.
    /// - Throws: ``JSONShapeError`` naming the key when a value has the wrong type or is out of range.
    package init(settings: JSONCursor) throws(JSONShapeError) {
        if let value = try settings.optionalMember("stream") {
            guard case .bool(let on) = value.value else { throw value.error("expected true or false") }
            enabled = on
        }
        if let value = try settings.optionalMember("streamURL") {
            let url = try value.string()
            let lowered = url.lowercased()
            guard lowered.hasPrefix("ws://") || lowered.hasPrefix("wss://"), url.utf8.count > 6 else {
                throw value.error("expected a ws:// or wss:// URL")
            }
            self.url = url
        }
        if let value = try settings.optionalMember("staleAfterSeconds") {
            staleAfter = try Self.seconds(value, in: 0.1...3600)
            staleAfterIsSet = true
        }
        if let value = try settings.optionalMember("fallbackIntervalSeconds") { fallbackInterval = try Self.seconds(value, in: 0.1...3600) }
        if let value = try settings.optionalMember("maxMessageBytes") { maxMessageBytes = try value.integer(in: 1024...(64 << 20)) }
        if let value = try settings.optionalMember("streamLifetimeSeconds") { lifetime = try Self.seconds(value, in: 1...604_800) }
    }

    /// The silence that makes a feed stale, for a venue that speaks every `heartbeat` on a quiet
    /// connection: `staleAfterSeconds` when set, else 5 s or twice the heartbeat, whichever is longer.
    package func staleAfter(heartbeat: Duration?) -> Duration {
        guard !staleAfterIsSet, let heartbeat else { return staleAfter }
        return max(staleAfter, heartbeat * 2)
    }

    /// A number of seconds, fractions allowed: a duration, not money, so a binary float is the right type.
    private static func seconds(_ value: JSONCursor, in range: ClosedRange<Double>) throws(JSONShapeError) -> Duration {
        guard case .number(let text) = value.value, let seconds = Double(text), range.contains(seconds) else {
            throw value.error("expected a number of seconds from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))")
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    private static func format(_ number: Double) -> String {
        number == number.rounded() ? String(Int(number)) : String(number)
    }
}
