import ConcurrencyHelpers
import PriceHostCore
import ProviderABI

/// The host's feeds (``QuoteFeeds``) over its WebSocket client: one ``FeedRunner`` per
/// provider, started when its first pair is asked for, shared by every listener.
package final class WebSocketFeeds: QuoteFeeds {
    /// What a provider's feed needs: the plugin's description, the host's settings, and REST.
    package struct Source: Sendable {
        package var stream: PluginStream
        package var policy: ProviderPolicy
        package var rest: any PriceFetcher

        package init(stream: PluginStream, policy: ProviderPolicy, rest: any PriceFetcher) {
            self.stream = stream
            self.policy = policy
            self.rest = rest
        }
    }

    private let sources: [String: Source]
    private let diagnostics: Diagnostics
    private let libraryName: String
    private let taskExecutor: (any TaskExecutor)?
    private let clock: any PriceClock
    /// The running feeds, by provider (internal: a test checks that a stopped one is let go).
    let runners = Lock<[String: FeedRunner]>([:])

    /// - Parameters:
    ///   - sources: by provider, those whose plugin describes a feed and that have a general fetcher.
    ///   - libraryName: the libcurl to load (`PRICEHOST_LIBCURL`).
    ///   - taskExecutor: where the feeds' tasks run: by default Swift's global executor; tests give one of their own.
    ///   - clock: what the feeds' staleness, backoff and timers are measured on: by default the system's.
    package init(sources: [String: Source], diagnostics: Diagnostics = .process, libraryName: String = LibCurl.defaultName,
                 taskExecutor: (any TaskExecutor)? = nil, clock: any PriceClock = SystemClock()) {
        self.clock = clock
        self.sources = sources
        self.diagnostics = diagnostics
        self.libraryName = libraryName
        self.taskExecutor = taskExecutor
    }

    package func hasFeed(_ provider: String) -> Bool { sources[provider] != nil }

    /// The providers with a feed, sorted.
    package var providers: [String] { sources.keys.sorted() }

    package func subscribe(provider: String, pair: QuoteRequest,
                           handler: @escaping @Sendable (StreamUpdate) -> Void) -> FeedSubscription? {
        guard let source = sources[provider] else { return nil }
        let runner = runners.withLock { runners in
            if let running = runners[provider] { return running }
            let made = FeedRunner(provider: provider, stream: source.stream, policy: source.policy, rest: source.rest,
                                  diagnostics: diagnostics, libraryName: libraryName, taskExecutor: taskExecutor, clock: clock)
            runners[provider] = made
            return made
        }
        let cancel = runner.listen(to: pair, handler: handler)
        return FeedSubscription(onCancel: cancel)
    }

    package func metricsText() -> String {
        let running = runners.withLock { $0 }.sorted { $0.key < $1.key }
        return FeedCounters.exposition(running.map { ($0.key, $0.value.feedState, $0.value.counters) })
    }

    package func stateGauge(_ provider: String) -> Int? {
        runners.withLock { $0[provider] }?.feedState.gauge
    }

    package func stop(provider: String) async {
        let runner = runners.withLock { $0.removeValue(forKey: provider) }
        await runner?.stop()
    }

    package func stop() async {
        for runner in runners.withLock({ $0.values }) { await runner.stop() }
    }
}
