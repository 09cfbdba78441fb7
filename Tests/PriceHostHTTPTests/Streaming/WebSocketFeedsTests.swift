import CProviderABI
import ConcurrencyHelpers
import Foundation
import PriceHostCore
@testable import PriceHostHTTP
import PriceHostTestTraits
import PriceHostTesting
import ProviderABI
import Testing

/// The host's feeds in process, against Python's `websockets` echo server: a feed whose
/// subscribe messages are quotes comes back as updates, through the C bridge a Swift
/// plugin uses, the host's `PluginStream`, and ``WebSocketFeeds``. Run under TSan in CI:
/// readers, timers, the watchdog and listeners all touch the runner's state.
// Two minutes: a test's time includes waiting for Swift Testing to record its end on the
// cooperative pool, which the suite's synchronous end-to-end tests hold for seconds at a time;
// seen at 38 to 73 s for a test whose body took 3 s. A hang still fails here, and the watchdog's stacks show it.
@Suite(.offThePool, .timeLimit(.minutes(2)))
struct WebSocketFeedsTests {
    /// Reads `quote ASSET CURRENCY AMOUNT MILLISECONDS` messages; subscribes by sending one per pair
    /// (an echo server sends it back), with amounts from `amounts`. An amount `A|B|C` is the amount A
    /// with the bid B and the ask C.
    struct EchoReader: StreamReader {
        let amounts: [String]

        func subscribeMessages(for pairs: [QuoteRequest]) -> [String] {
            pairs.flatMap { pair in
                amounts.enumerated().map { index, amount in "quote \(pair.asset) \(pair.currency) \(amount) \(1_700_000_000_000 + index)" }
            }
        }

        func read(_ message: String, pairs: [QuoteRequest]) -> [StreamEvent] {
            let words = message.split(separator: " ").map(String.init)
            guard words.count == 5, words[0] == "quote", let milliseconds = Int64(words[4]) else { return [] }
            let prices = words[3].split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            return [.quote(StreamQuote(asset: words[1], currency: words[2], amount: prices[0], timestampMilliseconds: milliseconds,
                                       bid: prices.count == 3 ? prices[1] : nil, ask: prices.count == 3 ? prices[2] : nil))]
        }
    }

    /// REST that must not be asked: the feed stays fresh.
    struct NoREST: PriceFetcher {
        func fetchQuote(for request: QuoteRequest) async throws -> Quote {
            throw ProviderError(.unavailable, "REST was asked while the feed was fresh")
        }
    }

    static func feeds(url: String, amounts: [String], clock: any PriceClock = SystemClock()) throws -> WebSocketFeeds {
        let pointer = CStreamBridge.makeStream(StreamFeed(url: url, reader: EchoReader(amounts: amounts)))
        let stream = try PluginStream.read(pointer, provider: "echo").get()
        var policy = ProviderPolicy()
        policy.stream.staleAfter = .seconds(30)
        // The feeds' tasks off the cooperative pool too, as the test is: other tests' blocking cannot stall them.
        return WebSocketFeeds(sources: ["echo": .init(stream: stream, policy: policy, rest: NoREST())],
                              diagnostics: Diagnostics(threshold: .error), taskExecutor: DispatchThreadsExecutor(), clock: clock)
    }

    /// Waits (at most 10 s, on the real clock) until `done` holds.
    static func eventually(tries: Int = 1_000, _ done: () -> Bool) async -> Bool {
        for _ in 0..<tries {
            if done() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return done()
    }

    /// Staleness is measured on the feeds' clock: a feed silent for 29 s of it is still live, at 30 s
    /// (its `staleAfterSeconds`) it is stale. No test waits 30 s: the test clock moves.
    @Test func aFeedGoesStaleWhenItsSilenceLastsStaleAfterOnItsClock() async throws {
        guard await WebSocketFixtureServer.available(for: #function) else { return }
        let server = try await WebSocketFixtureServer.start(["echo"])
        defer { server.stop() }
        let clock = TestClock()
        let feeds = try Self.feeds(url: server.url(), amounts: ["64000.1"], clock: clock)
        let received = LockedBox<[Date]>([])
        let subscription = try #require(feeds.subscribe(provider: "echo", pair: QuoteRequest(asset: "BTC", currency: "USD")) { update in
            received.update { $0.append(update.receivedAt) }
        })
        // The first connection waits 20 ms of the clock for the pairs asked with this one; the watchdog sleeps too.
        #expect(await clock.waitForTimers(atLeast: 2))
        clock.advance(by: .milliseconds(20))
        #expect(await Self.eventually { feeds.stateGauge("echo") == 1 })
        // Stamped with the clock's wall time.
        #expect(received.get() == [clock.wallNow])
        // The watchdog, asleep on the clock: after 29 s it looks, and the feed is still live.
        clock.advance(by: .seconds(29))
        #expect(await Self.eventually { clock.pendingTimers >= 1 })
        #expect(feeds.stateGauge("echo") == 1)
        // One second more: stale, once the watchdog looks. It looks every 250 ms of the clock from when it
        // last woke, which on a slow machine (TSan) may come after this advance: then a quarter second more wakes it.
        clock.advance(by: .seconds(1))
        for _ in 0..<2 {
            if await Self.eventually(tries: 200, { feeds.stateGauge("echo") == 2 }) { break }
            clock.advance(by: .milliseconds(250))
        }
        #expect(feeds.stateGauge("echo") == 2)
        subscription.cancel()
        await feeds.stop()
        // Wakes what still sleeps on the clock (a reconnect's backoff), which then finds the feed stopped.
        clock.advance(by: .seconds(3_600))
    }

    /// A Swift plugin's `StreamQuote` bid and ask, through the C bridge (ABI 1.4), the host's
    /// `PluginStream` and the feed's checks: exact on the update, and a quote whose bid or ask is
    /// no decimal above zero is dropped, as one with such an amount is. The update carries each side's
    /// text as the Decimal's own would be written (`64000.10` as `64000.1`), made once from the venue's.
    @Test func aQuotesBidAndAskReachTheListenerAndABadOneDropsTheQuote() async throws {
        guard await WebSocketFixtureServer.available(for: #function) else { return }
        let server = try await WebSocketFixtureServer.start(["echo"])
        defer { server.stop() }
        let clock = TestClock()
        let feeds = try Self.feeds(url: server.url(), amounts: ["64000.1|64000.09|64000.10", "64001|1e5|64001.5", "64001.2|64001.1|0",
                                                                "64002.5|64002.4|64002.6", "64003"], clock: clock)
        let received = Lock<[String]>([])
        let subscription = try #require(feeds.subscribe(provider: "echo", pair: QuoteRequest(asset: "BTC", currency: "USD")) { update in
            let sides = [update.quote.bid, update.quote.ask].map { $0.map(DecimalAmount.format) ?? "-" }
            #expect([update.bidText ?? "-", update.askText ?? "-"] == sides)
            received.withLock { $0.append("\(DecimalAmount.format(update.quote.amount)) \(sides.joined(separator: " "))") }
        })
        #expect(await clock.waitForTimers(atLeast: 2))
        clock.advance(by: .milliseconds(20))
        // Bounded: 10 s in steps of 10 ms.
        for _ in 0..<1_000 where received.withLock({ $0.count }) < 3 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(received.withLock { $0 } == ["64000.1 64000.09 64000.1", "64002.5 64002.4 64002.6", "64003 - -"])
        subscription.cancel()
        await feeds.stop()
        clock.advance(by: .seconds(3_600))
    }

    @Test func twoListenersOfTwoPairsShareOneConnectionAndGetEveryQuoteInOrder() async throws {
        guard await WebSocketFixtureServer.available(for: #function) else { return }
        let server = try await WebSocketFixtureServer.start(["echo"])
        defer { server.stop() }
        // On a test clock: the first connection waits 20 ms of it for the pairs asked with this one, so however
        // slowly this machine (TSan) subscribes the four listeners, they are all asked before the clock moves.
        let clock = TestClock()
        let feeds = try Self.feeds(url: server.url(), amounts: ["64000.1", "64001.25", "64002.5"], clock: clock)
        #expect(feeds.hasFeed("echo") && !feeds.hasFeed("other") && feeds.providers == ["echo"])
        let received = Lock<[String: [String]]>([:])
        let pairs = [QuoteRequest(asset: "BTC", currency: "USD"), QuoteRequest(asset: "ETH", currency: "USD")]
        var subscriptions: [FeedSubscription] = []
        for pair in pairs {
            for listener in 0..<2 {
                let subscription = feeds.subscribe(provider: "echo", pair: pair) { update in
                    #expect(update.source == .stream && update.quote.provider == "echo")
                    received.withLock { $0["\(pair.pair)#\(listener)", default: []].append(DecimalAmount.format(update.quote.amount)) }
                }
                subscriptions.append(try #require(subscription))
            }
        }
        #expect(feeds.subscribe(provider: "other", pair: pairs[0]) { _ in } == nil)
        // The connection's 20 ms and the watchdog, asleep on the clock.
        #expect(await clock.waitForTimers(atLeast: 2))
        clock.advance(by: .milliseconds(20))
        // Bounded: 10 s in steps of 10 ms.
        for _ in 0..<1_000 where received.withLock({ $0.values.map(\.count).reduce(0, +) }) < 12 {
            try await Task.sleep(for: .milliseconds(10))
        }
        for pair in pairs {
            for listener in 0..<2 {
                #expect(received.withLock { $0["\(pair.pair)#\(listener)"] } == ["64000.1", "64001.25", "64002.5"], "\(pair.pair)#\(listener)")
            }
        }
        // The feed's loop marks the connection live a moment after its first message: bounded, 5 s in steps of 10 ms.
        for _ in 0..<500 where feeds.stateGauge("echo") != 1 { try await Task.sleep(for: .milliseconds(10)) }
        let metrics = feeds.metricsText()
        #expect(metrics.contains(#"pricehost_stream_state{provider="echo"} 1"#), "\(metrics)")
        #expect(metrics.contains(#"pricehost_stream_messages_total{provider="echo"} "#))
        // The pairs asked for together went on the first connection: no hand-over.
        #expect(metrics.contains(#"pricehost_stream_reconnects_total{provider="echo"} 0"#), "\(metrics)")
        for subscription in subscriptions { subscription.cancel() }
        await feeds.stop()
        // Wakes what still sleeps on the clock, which then finds the feed stopped.
        clock.advance(by: .seconds(3_600))
    }

    /// A provider's feed stopped (as the fleet does on every lease it loses) is let go whole: its runner, its
    /// connection's group and reader, which otherwise kept each other, and the connection's wake pipe, alive.
    @Test func aStoppedFeedIsLetGo() async throws {
        guard await WebSocketFixtureServer.available(for: #function) else { return }
        let server = try await WebSocketFixtureServer.start(["echo"])
        defer { server.stop() }
        let clock = TestClock()
        let feeds = try Self.feeds(url: server.url(), amounts: ["64000.1"], clock: clock)
        let received = Lock(0)
        var subscription = feeds.subscribe(provider: "echo", pair: QuoteRequest(asset: "BTC", currency: "USD")) { _ in
            received.withLock { $0 += 1 }
        }
        weak let runner = feeds.runners.withLock { $0["echo"] }
        #expect(runner != nil)
        #expect(await clock.waitForTimers(atLeast: 2))
        clock.advance(by: .milliseconds(20))
        #expect(await Self.eventually { received.withLock { $0 } == 1 })
        #expect(subscription != nil)
        subscription?.cancel()
        // The subscription holds its runner (for its cancel): let it go too.
        subscription = nil
        await feeds.stop(provider: "echo")
        // Wakes what still sleeps on the clock (the watchdog), which then finds the feed stopped and ends.
        clock.advance(by: .seconds(3_600))
        #expect(await Self.eventually { runner == nil }, "the stopped feed's runner is still alive")
        #expect(try await server.line(startingWith: "CLOSED") == "CLOSED 1001 ")
    }
}
