import Foundation
@testable import PriceHostCore
import PriceHostTestTraits
import PriceHostTesting
@testable import PriceHostService
import Testing

/// The hub's topics on a test clock: a ticker waits its interval on the clock and ends with the
/// last client; a topic's events are kept for a minute of the clock after its last client left.
/// Off the cooperative pool, tickers included: other tests' blocking cannot stall what the clock wakes.
@Suite(.offThePool, .timeLimit(.minutes(1)))
struct StreamHubTests {
    static func topic(interval: Int = 1_000) -> StreamHub.TopicKey {
        StreamHub.TopicKey(asset: "BTC", currency: "USD", providers: nil, intervalMilliseconds: interval)
    }

    /// Waits (at most 10 s, on the real clock) until `done` holds.
    static func eventually(_ done: () -> Bool) async -> Bool {
        for _ in 0..<5_000 {
            if done() { return true }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return done()
    }

    /// (End to end, ServeStreamTests slept two and a half intervals after the clients left to show that the
    /// upstream was asked no more; the test clock shows the ticker is gone, and moves past many intervals.)
    @Test func aTickerTicksEachIntervalAndEndsWithItsLastClient() async {
        let clock = TestClock()
        let made = LockedBox(0)
        let hub = StreamHub(tickerExecutor: DispatchThreadsExecutor(), source: ClosureSource { _ in
            made.update { $0 += 1 }
            return "data: {}\n\n"
        }, clock: clock)
        defer { hub.stop() }
        let subscriber = StreamHub.Subscriber {}
        #expect(hub.subscribe(subscriber, to: Self.topic()))
        // Asleep after its first tick, it makes the next one only once the interval has passed on the clock.
        #expect(await clock.waitForTimers(atLeast: 1))
        #expect(made.get() == 1)
        clock.advance(by: .milliseconds(999))
        #expect(made.get() == 1)
        clock.advance(by: .milliseconds(1))
        #expect(await Self.eventually { made.get() == 2 && clock.pendingTimers == 1 })
        #expect(subscriber.take().count == 2)
        hub.unsubscribe(subscriber, from: Self.topic())
        #expect(hub.topicCount == 0)
        // The ticker's sleep was cancelled: nothing waits on the clock, and nothing is made however long it runs.
        #expect(clock.pendingTimers == 0)
        clock.advance(by: .seconds(60))
        #expect(made.get() == 2)
    }

    @Test func aTopicsEventsAreKeptForAMinuteOfTheClockAfterItsLastClientLeft() {
        let clock = TestClock()
        let deliver = LockedBox<(@Sendable (String, EventID?) -> Void)?>(nil)
        let source = ClosureSource(pushing: { _ in { feed in deliver.update { $0 = feed }; return FeedSubscription {} } }) { _ in "" }
        let hub = StreamHub(source: source, clock: clock)
        defer { hub.stop() }
        // The epoch, the ids' first part, is the clock's wall time in milliseconds.
        let epoch = UInt64(clock.wallNow.timeIntervalSince1970 * 1000)
        #expect(hub.epoch == epoch)
        let first = StreamHub.Subscriber {}
        #expect(hub.subscribe(first, to: Self.topic()))
        deliver.get()?("data: 1\n\n", nil)
        deliver.get()?("data: 2\n\n", nil)
        #expect(first.take() == ["id: \(epoch)-1\ndata: 1\n\n", "id: \(epoch)-2\ndata: 2\n\n"])
        hub.unsubscribe(first, from: Self.topic())

        // 59 s later, a client resuming after the first event gets the second, from what was kept.
        clock.advance(by: .seconds(59))
        let second = StreamHub.Subscriber {}
        #expect(hub.subscribe(second, to: Self.topic(), after: "\(epoch)-1"))
        #expect(second.take() == ["id: \(epoch)-2\ndata: 2\n\n"])
        hub.unsubscribe(second, from: Self.topic())

        // A minute after they came, they are gone.
        clock.advance(by: .seconds(1))
        let third = StreamHub.Subscriber {}
        #expect(hub.subscribe(third, to: Self.topic(), after: "\(epoch)-1"))
        #expect(third.take().isEmpty)
    }

    /// A client resuming from the fleet's kept events (read from Redis) may get some this instance has not relayed
    /// yet; when the topic relays them, that client does not get them a second time (a filtered end-to-end run once
    /// showed `[4, 5, 6, 7, 7]`), and the topic's other clients get each one once.
    @Test func aClientResumedFromTheFleetGetsEachEventOnceWhenTheTopicCatchesUp() throws {
        let deliver = LockedBox<(@Sendable (String, EventID?) -> Void)?>(nil)
        let source = ClosureSource(pushing: { _ in { feed in deliver.update { $0 = feed }; return FeedSubscription {} } }) { _ in "" }
        let hub = StreamHub(source: source, clock: TestClock())
        defer { hub.stop() }
        let fleet: UInt64 = 42
        func relay(_ number: UInt64, _ feed: @Sendable (String, EventID?) -> Void) { feed("data: \(number)\n\n", EventID(epoch: fleet, sequence: number)) }
        let first = StreamHub.Subscriber {}
        #expect(hub.subscribe(first, to: Self.topic()))
        let feed = try #require(deliver.get())
        for number: UInt64 in 1...5 { relay(number, feed) }
        // Resuming after 3: Redis holds 4 to 7 already, of which this instance has relayed up to 5.
        let kept = (4...7).map { (UInt64($0), "id: \(fleet)-\($0)\ndata: \($0)\n\n") }
        let resumed = StreamHub.Subscriber {}
        #expect(hub.subscribe(resumed, to: Self.topic(), after: "\(fleet)-3", fleet: StreamHub.FleetResume(after: 3, missed: [Self.topic(): kept])))
        for number: UInt64 in 6...8 { relay(number, feed) }
        #expect(resumed.take() == (4...8).map { "id: \(fleet)-\($0)\ndata: \($0)\n\n" })
        #expect(first.take() == (1...8).map { "id: \(fleet)-\($0)\ndata: \($0)\n\n" })
    }
}

/// A hub's source made of closures: a feed's pushes (none by default), and each tick's event.
struct ClosureSource: StreamSource {
    var pushing: @Sendable (StreamHub.TopicKey) -> StreamHub.Push? = { _ in nil }
    let making: @Sendable (StreamHub.TopicKey) async -> String

    func push(for topic: StreamHub.TopicKey) -> StreamHub.Push? { pushing(topic) }

    func event(for topic: StreamHub.TopicKey) async -> String { await making(topic) }
}
