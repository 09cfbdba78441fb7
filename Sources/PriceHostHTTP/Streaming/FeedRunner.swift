import ConcurrencyHelpers
import FoundationEssentials
import PriceHostCore
import ProviderABI

/// One provider's feed: its connections (``FeedGroup``, one per chunk of pairs the venue
/// allows on a connection), the listeners of each pair, and the rules every quote passes
/// before it reaches them: its pair is the connection's, its amount (and its bid and ask, when
/// given) a decimal above zero, and it
/// is never older than the last one emitted for its pair.
final class FeedRunner: Sendable {
    let provider: String
    let stream: PluginStream
    let policy: ProviderPolicy
    /// The provider's general fetcher: REST, polled while the feed is stale.
    let rest: any PriceFetcher
    let diagnostics: Diagnostics
    let pacer: FeedPacer
    let options: WebSocketOptions
    /// The URL: `streamURL`, or the plugin's.
    let baseURL: String
    /// What staleness, backoff, pings, lifetimes and warnings' intervals are measured on, and quotes stamped with.
    let clock: any PriceClock

    private struct Emitted {
        var timestampMilliseconds: Int64
        /// The amount's canonical text: equal texts, equal amounts (compared without `Decimal`'s arithmetic).
        var amountText: String
    }

    private struct State {
        var listeners = ListenerRegistry()
        var emitted: [QuoteRequest: Emitted] = [:]
        var groups: [FeedGroup] = []
        var counters = FeedCounters()
        var stopped = false
        /// When a quote the plugin gave was last refused, so a bad feed warns once per interval, not per message.
        var lastRefusalWarning: ContinuousClock.Instant?
        /// When a gap was last warned about, and the gaps since, so a gappy feed warns once per interval.
        var lastGapWarning: ContinuousClock.Instant?
        var gapsSinceWarning = 0
    }

    private let state = Lock(State())
    /// Where its connections' tasks run (`nil`: Swift's global executor).
    let taskExecutor: (any TaskExecutor)?

    init(provider: String, stream: PluginStream, policy: ProviderPolicy, rest: any PriceFetcher, diagnostics: Diagnostics,
         libraryName: String, taskExecutor: (any TaskExecutor)? = nil, clock: any PriceClock = SystemClock()) {
        self.provider = provider
        self.clock = clock
        self.taskExecutor = taskExecutor
        self.stream = stream
        self.policy = policy
        self.rest = rest
        self.diagnostics = diagnostics
        pacer = FeedPacer(limit: stream.connectLimit, clock: clock)
        options = WebSocketOptions(caFile: policy.caFile, connectTimeout: policy.timeout, handshakeTimeout: policy.timeout,
                                   maxMessageBytes: policy.stream.maxMessageBytes, libraryName: libraryName)
        baseURL = policy.stream.url ?? stream.url
    }

    /// Delivers `pair`'s updates to `handler`, starting with the last one there was, until the
    /// returned cancel is called; the first listener of a pair subscribes the feed to it.
    func listen(to pair: QuoteRequest, handler: @escaping @Sendable (StreamUpdate) -> Void) -> @Sendable () -> Void {
        let (id, isNew) = state.withLock { $0.listeners.add(handler, for: pair) }
        if isNew { place(pair) }
        return { [self] in
            state.withLock { $0.listeners.remove(id, from: pair) }
        }
    }

    /// Puts a new pair on a connection with room for it, or on a new one.
    private func place(_ pair: QuoteRequest) {
        let capacity = stream.maxPairsPerConnection ?? Int.max
        let (group, isNew): (FeedGroup?, Bool) = state.withLock { state in
            guard !state.stopped else { return (nil, false) }
            if let open = state.groups.first(where: { $0.pairCount < capacity && !$0.contains(pair) }) {
                open.add(pair)
                return (open, false)
            }
            let group = FeedGroup(runner: self, pairs: [pair], now: clock.now)
            state.groups.append(group)
            return (group, true)
        }
        if isNew { group?.start() }
    }

    /// Closes every connection and stops the fallbacks.
    func stop() async {
        let groups = state.withLock { state in
            state.stopped = true
            return state.groups
        }
        for group in groups { await group.stop() }
        // A group holds its runner: let the stopped ones go, or the two keep each other (and the group's last links) alive.
        // They are all of them: once `stopped` is set, no group is added.
        state.withLock { $0.groups = [] }
    }

    /// The feed's state: stale when any connection is, live when every one is, else connecting.
    var feedState: FeedState {
        let states = state.withLock { $0.groups }.map(\.feedState)
        if states.contains(.stale) { return .stale }
        if !states.isEmpty, states.allSatisfy({ $0 == .live }) { return .live }
        return .connecting
    }

    var counters: FeedCounters { state.withLock { $0.counters } }

    func countMessage() { state.withLock { $0.counters.messages += 1 } }
    func countReconnect() { state.withLock { $0.counters.reconnects += 1 } }

    /// Counts a gap, and warns about it unless a gap was warned about in the last 10 s (the next warning counts those).
    func countGap(scope: String, expected: Int64, got: Int64) {
        let earlier: Int? = state.withLock { state in
            state.counters.gaps += 1
            let now = clock.now
            if let last = state.lastGapWarning, now - last < .seconds(10) {
                state.gapsSinceWarning += 1
                return nil
            }
            defer { state.gapsSinceWarning = 0 }
            state.lastGapWarning = now
            return state.gapsSinceWarning
        }
        guard let earlier else { return }
        let within = scope.isEmpty ? "" : " of \(scope)"
        let more = earlier > 0 ? "; \(earlier) more gap(s) in the 10 s before" : ""
        diagnostics.warning("\(provider): feed sequence gap\(within): expected \(expected), got \(got)\(more)")
    }

    /// Checks a quote from the feed (or REST) and hands it to its pair's listeners, in order.
    func offer(asset: String, currency: String, amount text: String, timestampMilliseconds: Int64, bid: String? = nil, ask: String? = nil,
               source: QuoteSource, pairs: [QuoteRequest]?) {
        let receivedAt = clock.wallNow
        let pair = QuoteRequest(asset: asset.uppercased(), currency: currency.uppercased())
        if let pairs, !pairs.contains(pair) {
            return refuse("a quote for \(pair.pair), which the connection did not subscribe to")
        }
        guard let amount = DecimalAmount.parse(text), amount > 0 else {
            return refuse("a quote for \(pair.pair) with amount \(JSONValue.quoted(text)), which is not a positive decimal")
        }
        let sides: (bid: Decimal?, ask: Decimal?)
        switch QuoteSides.check(bid: bid, ask: ask, accepts: QuoteSides.positive) {
        case .success(let checked): sides = checked
        case .failure(let bad):
            return refuse("a quote for \(pair.pair) with \(bad.field) \(JSONValue.quoted(bad.text)), which is not a positive decimal")
        }
        var milliseconds = timestampMilliseconds
        if milliseconds == 0 { milliseconds = Int64((receivedAt.timeIntervalSince1970 * 1000).rounded()) }
        let timestamp = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        guard ISO8601Timestamp.isValid(timestamp) else {
            return refuse("a quote for \(pair.pair) with timestamp \(milliseconds) ms, outside the years 0001 to 9999")
        }
        let amountText = DecimalAmount.canonical(text)
        let update = StreamUpdate(quote: Quote(asset: pair.asset, currency: pair.currency, amount: amount, provider: provider, timestamp: timestamp,
                                                         bid: sides.bid, ask: sides.ask),
                                  amountText: amountText, bidText: bid.map(DecimalAmount.canonical), askText: ask.map(DecimalAmount.canonical),
                                  source: source, receivedAt: receivedAt)
        state.withLock { state in
            if let last = state.emitted[pair] {
                // Never older than the last one emitted; an exact repeat (two connections overlapping in a hand-over) once.
                if milliseconds < last.timestampMilliseconds { return }
                if milliseconds == last.timestampMilliseconds, amountText == last.amountText { return }
            }
            state.emitted[pair] = Emitted(timestampMilliseconds: milliseconds, amountText: amountText)
            if source == .stream { state.counters.recordAge(seconds: receivedAt.timeIntervalSince(timestamp)) }
            // Under the lock, so that every listener sees each pair's quotes in order.
            state.listeners.deliver(update, to: pair)
        }
    }

    /// Drops a quote the plugin should not have made, with a warning at most every 10 s.
    private func refuse(_ what: String) {
        let now = clock.now
        let warn = state.withLock { state in
            if let last = state.lastRefusalWarning, now - last < .seconds(10) { return false }
            state.lastRefusalWarning = now
            return true
        }
        if warn { diagnostics.warning("\(provider): the feed's plugin reported \(what); dropped") }
    }
}
