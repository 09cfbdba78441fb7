import ConcurrencyHelpers
import PriceHostCore
import ProviderABI

/// The connection for one chunk of a provider's pairs, and everything around it:
/// opening and subscribing, reconnecting with backoff, hand-overs (the venue asks,
/// the connection reaches its lifetime, or pairs join) in which the new connection
/// goes live before the old one closes, application pings, and staleness with its
/// REST fallback (``FeedGroup+Fallback``).
///
/// One loop (``run()``) owns the connections; readers, timers and the watchdog send it ``FeedSignal``s.
final class FeedGroup: Sendable {
    let runner: FeedRunner
    let signals: AsyncStream<FeedSignal>
    let continuation: AsyncStream<FeedSignal>.Continuation

    struct State {
        var pairs: [QuoteRequest]
        /// The last price or heartbeat: what keeps a feed fresh (an acknowledgement does not).
        var lastMessage: ContinuousClock.Instant
        /// When the active connection opened, while it has brought no price or heartbeat.
        var silentSince: ContinuousClock.Instant?
        var stale = false
        var activeLive = false
        var fallback: Task<Void, Never>?
        var tasks: [Task<Void, Never>] = []
        var stopped = false
    }

    let state: Lock<State>

    /// - Parameter now: on the runner's clock; the feed is fresh from then, until `staleAfterSeconds` pass without a price or heartbeat.
    init(runner: FeedRunner, pairs: [QuoteRequest], now: ContinuousClock.Instant) {
        self.runner = runner
        state = Lock(State(pairs: pairs, lastMessage: now))
        (signals, continuation) = AsyncStream.makeStream(of: FeedSignal.self)
    }

    var pairCount: Int { state.withLock { $0.pairs.count } }
    func contains(_ pair: QuoteRequest) -> Bool { state.withLock { $0.pairs.contains(pair) } }

    func add(_ pair: QuoteRequest) {
        state.withLock { $0.pairs.append(pair) }
        continuation.yield(.pairsChanged)
    }

    var feedState: FeedState {
        state.withLock { $0.stale ? .stale : $0.activeLive ? .live : .connecting }
    }

    func start() {
        let loop = Task(executorPreference: runner.taskExecutor) { [self] in await run() }
        let watchdog = Task(executorPreference: runner.taskExecutor) { [self] in await watch() }
        state.withLock { $0.tasks += [loop, watchdog] }
    }

    func stop() async {
        let tasks = state.withLock { state in
            state.stopped = true
            state.fallback?.cancel()
            return state.tasks
        }
        continuation.yield(.stop)
        for task in tasks.dropFirst() { task.cancel() }
        await tasks.first?.value
    }

    /// The loop: the only place connections are opened, swapped and dropped.
    private func run() async {
        var active: FeedLink?
        var pending: FeedLink?
        var opening = false
        var failures = 0
        var linkTasks: [Int: [Task<Void, Never>]] = [:]
        var everOpened = false
        var liveSince: ContinuousClock.Instant?

        func open(handover: Bool) {
            guard !opening else { return }
            opening = true
            Task(executorPreference: runner.taskExecutor) { await self.connect(handover: handover) }
        }
        func retry(handover: Bool, after reason: String) {
            failures += 1
            let delay = FeedPacer.backoff(failures: failures)
            runner.diagnostics.warning("\(runner.provider): \(reason); reconnecting in \(Durations.seconds(delay)) s")
            Task(executorPreference: runner.taskExecutor) {
                try? await self.runner.clock.sleep(for: delay)
                self.continuation.yield(.retry(handover: handover))
            }
        }
        func finish(_ link: FeedLink) {
            link.reader.stop()
            for task in linkTasks.removeValue(forKey: link.id) ?? [] { task.cancel() }
        }
        func closeInBackground(_ link: FeedLink, because reason: String) {
            // Noted before its reader reports the end (at once, in `finish`), so the report says why.
            link.noteClosing(because: reason)
            finish(link)
            Task(executorPreference: runner.taskExecutor) { await link.close(because: reason) }
        }
        func handOverIfPairsChanged() {
            guard let active, pending == nil, !opening else { return }
            if active.pairs.requests != state.withLock({ $0.pairs }) { open(handover: true) }
        }

        open(handover: false)
        for await signal in signals {
            switch signal {
            case .stop:
                for link in [active, pending].compactMap({ $0 }) {
                    finish(link)
                    await link.close(because: "pricehost is stopping", code: .goingAway)
                }
                continuation.finish()
                return

            case .opened(let link, let handover):
                opening = false
                if everOpened { runner.countReconnect() }
                everOpened = true
                link.reader.attach(link)
                linkTasks[link.id] = startTasks(for: link)
                if handover, active != nil { pending = link } else {
                    active = link
                    liveSince = nil
                    state.withLock { $0.silentSince = link.openedAt }
                }

            case .openFailed(let reason, let handover):
                opening = false
                retry(handover: handover && active != nil, after: reason)

            case .retry(let handover):
                if active == nil { open(handover: false) } else if handover, pending == nil { open(handover: true) }

            case .live(let link):
                if let waiting = pending, waiting === link, let old = active {
                    pending = nil
                    active = link
                    closeInBackground(old, because: "handed over to a new connection")
                }
                if active === link {
                    liveSince = runner.clock.now
                    state.withLock { $0.activeLive = true; $0.silentSince = nil }
                    handOverIfPairsChanged()
                }

            case .ended(let link, let reason):
                finish(link)
                if link === active {
                    // A pending connection has not gone live yet (it would have replaced this one).
                    state.withLock { $0.activeLive = false; $0.silentSince = pending?.openedAt }
                    let lived = liveSince.map { runner.clock.now - $0 } ?? .zero
                    if lived >= .seconds(30) { failures = 0 }
                    if let next = pending {
                        active = next
                        pending = nil
                    } else {
                        active = nil
                        retry(handover: false, after: link.closedBecause ?? "the feed's connection ended: \(reason)")
                    }
                } else if link === pending {
                    pending = nil
                    retry(handover: true, after: link.closedBecause ?? "the new connection ended before it went live: \(reason)")
                }

            case .venueError(let link, let message):
                guard link === active || link === pending else { continue }
                closeInBackground(link, because: "the venue reported an error: \(message)")

            case .handover(let link, let reason):
                guard link === active, pending == nil, !opening else { continue }
                runner.diagnostics.log(.info, "\(runner.provider): \(reason); opening a new connection before closing this one")
                open(handover: true)

            case .pairsChanged:
                handOverIfPairsChanged()

            case .stale(let reason):
                for link in [active, pending].compactMap({ $0 }) {
                    closeInBackground(link, because: reason)
                }
            }
        }
    }

    /// Opens a connection for the current pairs and subscribes it; reports `.opened` or `.openFailed`.
    private func connect(handover: Bool) async {
        // A moment for the pairs asked for together (a command's --asset list) to share the first connection.
        if !handover { try? await runner.clock.sleep(for: .milliseconds(20)) }
        await runner.pacer.takeTurn()
        let pairs = StreamPairs(state.withLock { $0.pairs })
        guard let url = runner.stream.connectionURL(base: runner.baseURL, pairs: pairs) else {
            continuation.yield(.openFailed("the plugin made no connection URL for \(pairs.requests.map(\.pair).joined(separator: ","))", handover: handover))
            return
        }
        do {
            let reader = FeedReader(group: self, pairs: pairs)
            let connection = try await WebSocketConnection.connect(to: url, options: runner.options, handler: reader)
            let link = FeedLink(id: Self.nextLinkID.withLock { $0 += 1; return $0 }, connection: connection, pairs: pairs,
                                reader: reader, openedAt: runner.clock.now)
            for message in runner.stream.subscribeMessages(for: pairs) {
                try await connection.send(text: message)
            }
            continuation.yield(.opened(link, handover: handover))
        } catch {
            continuation.yield(.openFailed("cannot open the feed: \(error)", handover: handover))
        }
    }

    private static let nextLinkID = Lock(0)
}
