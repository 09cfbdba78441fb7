import ConcurrencyHelpers
import FoundationEssentials
import Glibc
import PriceHostCore
import ProviderABI

/// A fleet's feeds (`serve` with `shared.redis` and `"stream": true`): one instance holds each
/// venue's upstream connection, and every instance serves its clients from what it relays.
///
/// - **The lease.** For each provider one instance holds `pricehost:stream:PROVIDER:holder`
///   (`SET NX PX`, ``lease`` long, renewed every ``tick``; lost when not renewed). Only the
///   holder runs the provider's feed (``local``), for every pair any instance wants (each
///   instance adds its pairs to a set in Redis). A holder whose feed is stale for
///   `staleAfterSeconds` lets the lease go, so another instance connects.
/// - **Fan-out.** The holder relays each update through a script that numbers it with the
///   fleet's counter, keeps it in the pair's list (60 s, 600 events) and publishes it. Every
///   instance, the holder included, delivers what arrives on the channel (``RedisSubscriber``),
///   so the whole fleet shows the same sequence with the same ids.
/// - **Redis down.** Each instance streams from its own connection, with a warning, until Redis
///   is back; then the fleet goes back to one connection per venue.
/// - **A store the fleet shares** (PostgreSQL, ``keepHeld``). The holder writes what its feed brings,
///   before relaying it; an instance that takes the feed over first writes the pairs' kept events
///   (the store keeps a quote once, so those the last holder wrote are not doubled), so a quote a
///   holder relayed and died before writing is not lost.
package final class FleetFeeds: QuoteFeeds {
    /// How long the lease lasts without renewal.
    static let lease: Duration = .seconds(3)
    /// How often the lease is renewed or tried, and the pairs looked at.
    static let tick: Duration = .milliseconds(500)

    let local: any QuoteFeeds
    let client: RedisClient
    let database: Int
    let diagnostics: Diagnostics
    let staleAfter: @Sendable (String) -> Duration
    /// This instance's token in the leases.
    let token: String
    let subscriber: RedisSubscriber
    let epoch = Lock<UInt64?>(nil)
    let metrics: SharedMetrics
    /// Keys of kept events that held bad entries: each is logged once.
    let badKeys = KeyReports()
    /// Keys that made Redis refuse a relay or lease call: each is logged once a minute.
    let faultyKeys = KeyReports(every: .seconds(60))
    /// What the lease ticks, staleness and refusals are timed on, and the fleet's times read from.
    let clock: any PriceClock
    /// Writes an update the holder's feed brought to the store the fleet shares; `nil` without one.
    let keepHeld: (@Sendable (StreamUpdate) -> Void)?

    struct Feed {
        var listeners = ListenerRegistry()
        /// The last fleet sequence delivered per pair: nothing older or repeated is delivered.
        var delivered: [QuoteRequest: UInt64] = [:]
        /// The local feed's subscriptions: the fleet's pairs while holding, ours while alone.
        var upstream: [QuoteRequest: FeedSubscription] = [:]
        var holding = false
        var alone = false
        /// Until when this instance streams alone because Redis refused the feed's keys and they could not be repaired.
        var refusedUntil: ContinuousClock.Instant?
        /// Whether the last tick's calls were refused with nothing to repair.
        var refused = false
        var staleSince: ContinuousClock.Instant?
        var loop: Task<Void, Never>?
        var relay: RelayQueue?
        var counters = FleetCounters()
    }

    struct State {
        var feeds: [String: Feed] = [:]
        /// Learning the fleet's epoch at start.
        var startup: Task<Void, Never>?
        var stopped = false
    }

    let state = Lock(State())

    /// - Parameters:
    ///   - local: this instance's own feeds: the upstream connections.
    ///   - staleAfter: a provider's `staleAfterSeconds`.
    ///   - clock: by default the system's.
    ///   - keepHeld: writes what the feeds this instance holds bring to the store the fleet shares.
    package init(local: any QuoteFeeds, fleet: SharedFleet, diagnostics: Diagnostics, clock: any PriceClock = SystemClock(),
                 keepHeld: (@Sendable (StreamUpdate) -> Void)? = nil, staleAfter: @escaping @Sendable (String) -> Duration) {
        self.local = local
        self.clock = clock
        self.keepHeld = keepHeld
        client = fleet.client
        metrics = fleet.metrics
        database = fleet.settings.redis.database
        self.diagnostics = diagnostics
        self.staleAfter = staleAfter
        token = Self.makeToken()
        let database = fleet.settings.redis.database
        subscriber = RedisSubscriber(url: fleet.settings.redis, pattern: FleetFeedCodec.channelPattern(database: database),
                                     connectTimeout: .milliseconds(fleet.settings.connectTimeoutMilliseconds))
        subscriber.start { [weak self] channel, payload in self?.arrived(channel: channel, payload: payload) }
        learnEpochAtStart()
    }

    package func hasFeed(_ provider: String) -> Bool { local.hasFeed(provider) }
    package var fleetEpoch: UInt64? { epoch.withLock { $0 } }
    package func stateGauge(_ provider: String) -> Int? { local.stateGauge(provider) }

    package func subscribe(provider: String, pair: QuoteRequest, handler: @escaping @Sendable (StreamUpdate) -> Void) -> FeedSubscription? {
        guard local.hasFeed(provider) else { return nil }
        let (id, start) = state.withLock { state -> (Int, Bool) in
            var feed = state.feeds[provider] ?? Feed()
            let start = feed.loop == nil && !state.stopped
            let id = feed.listeners.add(handler, for: pair).id
            state.feeds[provider] = feed
            return (id, start)
        }
        if start { startFeed(provider) }
        return FeedSubscription { [self] in
            state.withLock { $0.feeds[provider]?.listeners.remove(id, from: pair) }
        }
    }

    package func stop(provider: String) async {
        await local.stop(provider: provider)
    }

    package func stop() async {
        let loops = state.withLock { state in
            state.stopped = true
            state.startup?.cancel()
            return state.feeds.values.compactMap(\.loop)
        }
        for loop in loops { loop.cancel() }
        for loop in loops { await loop.value }
        subscriber.stop()
        await local.stop()
    }

    // MARK: - One provider's loop

    private func startFeed(_ provider: String) {
        let relay = RelayQueue()
        let loop = Task { [self] in
            let relaying = Task {
                for await _ in relay.signals {
                    for _ in 0..<(RelayQueue.capacity / RelayQueue.batch + 1) {
                        let batch = relay.take()
                        if batch.isEmpty { break }
                        await self.relay(batch: batch, provider: provider)
                    }
                }
            }
            while !Task.isCancelled {
                await step(provider)
                try? await clock.sleep(for: Self.tick)
            }
            relaying.cancel()
            await release(provider)
        }
        state.withLock { state in
            state.feeds[provider]?.loop = loop
            state.feeds[provider]?.relay = relay
        }
    }

    /// One tick: alone while Redis is down; otherwise the lease, and while holding it, the fleet's pairs.
    private func step(_ provider: String) async {
        if case .down = client.health {
            await streamAlone(provider, saying: "shared: redis is unavailable; streaming \(provider) from this instance's own connection until it returns")
            // A call lets the client try Redis again once its backoff allows: that is how it learns Redis is back.
            _ = try? await client.perform(.command(["PING"]))
            return
        }
        if isRefused(provider) {
            // Said when Redis refused (FleetFeeds+Repair).
            await streamAlone(provider, saying: nil)
            return
        }
        if state.withLock({ $0.feeds[provider]?.alone == true }) {
            guard case .up = client.health else { return }
            let refused = state.withLock { state in
                defer { state.feeds[provider]?.refusedUntil = nil }
                return state.feeds[provider]?.refusedUntil != nil
            }
            diagnostics.warning(refused ? "shared: trying redis again for \(provider)'s feed (one connection for all instances)"
                                        : "shared: redis is back; \(provider)'s feed is shared by the fleet again (one connection for all instances)")
            await dropUpstream(provider, alone: false)
        }
        let wanted = state.withLock { $0.feeds[provider]?.listeners.pairs ?? [] }
        let pairsKey = FleetFeedCodec.pairsKey(provider: provider)
        var calls: [RedisCall] = wanted.isEmpty ? [] : [.command(["SADD", pairsKey] + wanted.map(\.pair)), .command(["PEXPIRE", pairsKey, "60000"])]
        let now = String(nowMilliseconds())
        calls += [.command(["SET", FleetFeedCodec.epochKey, now, "NX"]), .command(["GET", FleetFeedCodec.epochKey])]
        calls.append(.script(.holdLease, keys: [FleetFeedCodec.leaseKey(provider: provider)], arguments: [token, Self.milliseconds(Self.lease)]))
        calls.append(.command(["SMEMBERS", pairsKey]))
        guard let replies = try? await client.perform(calls), replies.count == calls.count else { return }
        guard await repairRefusals(provider, pairs: wanted.isEmpty ? nil : replies[0], lease: replies[replies.count - 2]),
              case .integer(let lease) = replies[replies.count - 2] else { return }
        learnEpoch(from: replies[replies.count - 3])
        guard lease > 0 else {
            if state.withLock({ $0.feeds[provider]?.holding == true }) {
                diagnostics.log(.info, "shared: another instance holds \(provider)'s feed now; closing this one's connection")
                await dropUpstream(provider, alone: false)
            }
            return
        }
        let took = state.withLock { state -> Bool in
            let took = state.feeds[provider]?.holding == false
            state.feeds[provider]?.holding = true
            if took { state.feeds[provider]?.counters.handovers += 1 }
            return took
        }
        if took { diagnostics.log(.info, "shared: this instance holds \(provider)'s feed for the fleet") }
        if await giveUpIfStale(provider) { return }
        let pairs: [QuoteRequest] = {
            guard case .array(let members?) = replies[replies.count - 1] else { return wanted }
            return members.compactMap { member in
                guard let text = member.text else { return nil }
                let parts = text.split(separator: "-")
                guard parts.count == 2, let asset = AssetCode.normalized(String(parts[0])), let currency = AssetCode.normalized(String(parts[1])) else { return nil }
                return QuoteRequest(asset: asset, currency: currency)
            }
        }()
        if took { await takeOver(provider, pairs: pairs, keep: keepHeld) }
        subscribeUpstream(provider, pairs: pairs) { [weak self] update in
            guard let self else { return }
            // Written, then relayed: a quote a client got is in the store, or in the backlog the next holder writes.
            keepHeld?(update)
            state.withLock { $0.feeds[provider]?.relay }?.push(update)
        }
    }

    /// The holder's feed stale for `staleAfterSeconds` more: let the lease go, so another instance tries.
    private func giveUpIfStale(_ provider: String) async -> Bool {
        let stale = local.stateGauge(provider) == 2
        let now = clock.now
        let giveUp = state.withLock { state -> Bool in
            guard stale else { state.feeds[provider]?.staleSince = nil; return false }
            let since = state.feeds[provider]?.staleSince ?? now
            state.feeds[provider]?.staleSince = since
            return now - since >= staleAfter(provider)
        }
        guard giveUp else { return false }
        diagnostics.warning("shared: \(provider)'s feed stayed stale on this instance; letting another instance take it")
        await release(provider)
        // Not straight back: the others get a tick to take it.
        try? await clock.sleep(for: Self.tick * 2)
        return true
    }

    /// Lets the lease go if it is ours, and closes the local feed.
    private func release(_ provider: String) async {
        let holding = state.withLock { $0.feeds[provider]?.holding == true }
        await dropUpstream(provider, alone: false)
        if holding {
            _ = try? await client.perform(.script(.release, keys: [FleetFeedCodec.leaseKey(provider: provider)], arguments: [token]))
        }
    }

    /// Now, in milliseconds since 1970: the fleet's times (published, epochs, repairs).
    func nowMilliseconds() -> Int64 {
        Int64((clock.wallNow.timeIntervalSince1970 * 1000).rounded())
    }

    static func milliseconds(_ duration: Duration) -> String {
        String(Durations.milliseconds(of: duration))
    }

    private static func makeToken() -> String {
        var bytes = [UInt8](repeating: 0, count: 12)
        for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255) }
        return "\(getpid())-" + bytes.map { String($0, radix: 16) }.joined()
    }
}
