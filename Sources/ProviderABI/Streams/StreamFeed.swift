/// A venue's WebSocket feed, as a Swift plugin describes it (ABI 1.3).
///
/// The plugin says where the feed is, what to send to subscribe, and how to
/// read a message (``StreamReader``); the host does the rest: connections,
/// pings, reconnects with backoff, stall detection with REST fallback,
/// ordering and fan-out. Return one from ``ProviderPlugin/makeStream(context:)``.
public struct StreamFeed: Sendable {
    /// The feed's `ws://` or `wss://` URL; the provider's `streamURL` setting replaces it.
    public var url: String
    /// The most pairs one connection may carry (`nil`: no limit); more pairs open more connections.
    public var maxPairsPerConnection: Int?
    /// The venue's limit on connection attempts (`nil`: the host's backoff alone); the host waits rather than exceed it.
    public var connectLimit: StreamConnectLimit?
    /// The longest the venue keeps a connection open (`nil`: no limit). Before it ends, the
    /// host opens the next connection and closes the old one once the new one is live.
    public var maximumConnectionLifetime: Duration?
    /// An application-level ping the venue wants, if any.
    public var ping: StreamPing?
    /// How often the venue sends something on a quiet connection (`nil`: unknown). Unless the
    /// provider sets `staleAfterSeconds`, the host waits at least twice this before calling the feed stale.
    public var heartbeatInterval: Duration?
    /// Subscribes and reads messages.
    public var reader: any StreamReader

    /// Creates a feed description.
    public init(url: String, reader: any StreamReader, maxPairsPerConnection: Int? = nil,
                connectLimit: StreamConnectLimit? = nil, maximumConnectionLifetime: Duration? = nil, ping: StreamPing? = nil,
                heartbeatInterval: Duration? = nil) {
        self.heartbeatInterval = heartbeatInterval
        self.url = url
        self.reader = reader
        self.maxPairsPerConnection = maxPairsPerConnection
        self.connectLimit = connectLimit
        self.maximumConnectionLifetime = maximumConnectionLifetime
        self.ping = ping
    }
}

/// At most `attempts` connection attempts in any `window`, e.g. Kraken's 150 in 10 minutes (give a margin).
public struct StreamConnectLimit: Sendable {
    /// Attempts allowed in one window.
    public var attempts: Int
    /// The window.
    public var window: Duration

    /// Creates a limit.
    public init(attempts: Int, per window: Duration) {
        self.attempts = attempts
        self.window = window
    }
}

/// A text message the host sends on a schedule, for venues that want an application-level ping.
public struct StreamPing: Sendable {
    /// The message, e.g. `{"method":"ping"}`.
    public var message: String
    /// How often.
    public var interval: Duration

    /// Creates a ping.
    public init(message: String, interval: Duration) {
        self.message = message
        self.interval = interval
    }
}

/// What a plugin knows about its venue's feed messages. The host calls it from its
/// connections' threads, concurrently for different connections: keep it free of
/// shared mutable state, and never block.
public protocol StreamReader: Sendable {
    /// The URL of a connection for `pairs`, from `base` (the feed's URL or `streamURL`);
    /// by default `base` itself. For venues that name the pairs in the URL. `nil` when it cannot be made.
    func connectionURL(base: String, pairs: [QuoteRequest]) -> String?
    /// The messages that subscribe a new connection to `pairs`; none when the URL subscribes.
    func subscribeMessages(for pairs: [QuoteRequest]) -> [String]
    /// The messages that end the subscription to `pairs` on a connection that stays open; none by default.
    func unsubscribeMessages(for pairs: [QuoteRequest]) -> [String]
    /// What one text message means. `pairs` are the connection's. An empty answer
    /// means "nothing for the host" (an acknowledgement); it still proves the feed alive.
    func read(_ message: String, pairs: [QuoteRequest]) -> [StreamEvent]
}

extension StreamReader {
    /// `base`: every connection uses the feed's URL.
    public func connectionURL(base: String, pairs: [QuoteRequest]) -> String? { base }
    /// None.
    public func unsubscribeMessages(for pairs: [QuoteRequest]) -> [String] { [] }
}

/// What a feed message meant.
public enum StreamEvent: Sendable, Equatable {
    /// A price for one of the connection's pairs.
    case quote(StreamQuote)
    /// The venue's heartbeat: the feed is alive.
    case heartbeat
    /// The message's sequence number within `scope` (`""` for the connection, or a pair's
    /// symbol). Report it before the message's quotes: a jump is a counted gap; a repeat
    /// or a step back drops the message's quotes.
    case sequence(Int64, scope: String)
    /// The venue reports an error (a refused subscription): the host closes the connection and reconnects.
    case error(String)
    /// The venue asks the client to reconnect: the host opens a new connection, then closes this one.
    case reconnect(String)
    /// A text reply to send on this connection, such as an application-level pong.
    case reply(String)
}

/// A price read from a feed message, with its amount's exact text.
public struct StreamQuote: Sendable, Equatable {
    /// The asset code, e.g. `BTC`: one of the connection's pairs.
    public var asset: String
    /// The quote currency code, e.g. `USD`.
    public var currency: String
    /// The amount as the venue wrote it: `-?digits(.digits)?`, e.g. `"64000.10"`; the host checks it.
    public var amount: String
    /// The venue's time of the price, in milliseconds since the Unix epoch; `nil` when the message has none.
    public var timestampMilliseconds: Int64?
    /// The venue's best bid as it wrote it, by the rule of ``amount`` (ABI 1.4); `nil` when the message has none.
    /// The host drops a quote whose bid is not a decimal above zero, as it drops one with such an amount.
    public var bid: String?
    /// The venue's best ask, as ``bid``.
    public var ask: String?

    /// Creates a quote.
    public init(asset: String, currency: String, amount: String, timestampMilliseconds: Int64?, bid: String? = nil, ask: String? = nil) {
        self.asset = asset
        self.currency = currency
        self.amount = amount
        self.timestampMilliseconds = timestampMilliseconds
        self.bid = bid
        self.ask = ask
    }

    /// A quote for `pair`.
    public init(_ pair: QuoteRequest, amount: String, timestampMilliseconds: Int64?, bid: String? = nil, ask: String? = nil) {
        self.init(asset: pair.asset, currency: pair.currency, amount: amount, timestampMilliseconds: timestampMilliseconds, bid: bid, ask: ask)
    }
}
