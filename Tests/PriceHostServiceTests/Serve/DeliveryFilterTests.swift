import Foundation
@testable import PriceHostCore
import PriceHostTestTraits
import PriceHostTesting
@testable import PriceHostService
import ProviderABI
import Testing

/// A stream client's delivery rule, end to end through the hub and the client's plan: a feed pushes a
/// scripted sequence of quotes, time moves on a ``TestClock``, and the client takes what its writer would write.
@Suite(.offThePool, .timeLimit(.minutes(1)))
struct DeliveryFilterTests {
    /// A hub whose one topic is pushed by hand, and the epoch of its ids.
    final class Rig: Sendable {
        let clock = TestClock()
        let hub: StreamHub
        private let feed = LockedBox<(@Sendable (String, EventID?) -> Void)?>(nil)
        let wakes = LockedBox(0)

        init() {
            let feed = self.feed
            hub = StreamHub(source: ClosureSource(pushing: { _ in { deliver in feed.update { $0 = deliver }; return FeedSubscription {} } }) { _ in "" },
                            clock: clock)
        }

        var epoch: UInt64 { hub.epoch }

        /// The feed pushes a quote of `amount`, timestamped `age` before the clock's wall time.
        func push(_ amount: String, age: Duration = .zero) {
            let time = clock.wallNow.addingTimeInterval(-Durations.secondsValue(age))
            feed.get()?("data: " + Self.quote(amount, at: time) + "\n\n", nil)
        }

        static func quote(_ amount: String, at time: Date) -> String {
            #"{"asset":"BTC","currency":"USD","amount":"\#(amount)","provider":"venue","timestamp":"\#(ISO8601Timestamp.format(time))"}"#
        }

        /// A client of BTC-USD with `rule`, resuming after `lastEventID` when given.
        func subscribe(_ rule: DeliveryRule, after lastEventID: String? = nil) throws -> any ServeEventSubscription {
            let plan = StreamPlan(topics: [StreamHubTests.topic()], lastEventID: lastEventID, rule: rule, hub: hub, metrics: ServeMetrics(clock: clock))
            let wakes = self.wakes
            return try #require(plan.subscribe { wakes.update { $0 += 1 } })
        }
    }

    /// The amounts of the `data:` events taken, with their ids' sequence numbers.
    static func amounts(_ events: [String]) -> [String] {
        events.map { event in
            guard let amount = event.firstRange(of: #""amount":""#) else { return event }
            let rest = event[amount.upperBound...]
            let sequence = event.hasPrefix("id: ") ? String(event.dropFirst(4).prefix { $0 != "\n" }.split(separator: "-").last ?? "") : "?"
            return "\(rest.prefix { $0 != "\"" })#\(sequence)"
        }
    }

    @Test func deviationAndHeartbeatDeliverExactlyWhatTheRuleSelects() throws {
        let rig = Rig()
        defer { rig.hub.stop() }
        let client = try rig.subscribe(DeliveryRule(deviationBps: 25, heartbeat: .seconds(60)))
        defer { client.cancel() }
        // Each pushed quote, and what this client gets of it.
        let script: [(String, [String])] = [
            ("100", ["100#1"]),                  // the first is always delivered
            ("100.2", []),                       // 20 bps from 100
            ("100.25", ["100.25#3"]),            // 25 bps: inclusive
            ("100", []),                         // 24.94 bps from 100.25, the last delivered (not from 100.2)
            ("99.999375", ["99.999375#5"]),      // exactly 25 bps below 100.25
            ("100.1", []),                       // 10.06 bps
        ]
        for (amount, expected) in script {
            rig.push(amount)
            #expect(Self.amounts(client.take()) == expected, "after \(amount)")
        }
        // 60 s with nothing delivered: the latest price (not the last delivered) comes again, with its id.
        rig.clock.advance(by: .seconds(59))
        #expect(client.take().isEmpty)
        let wakesBefore = rig.wakes.get()
        rig.clock.advance(by: .seconds(1))
        #expect(rig.wakes.get() == wakesBefore + 1)
        #expect(Self.amounts(client.take()) == ["100.1#6"])
        // From the heartbeat's price: 100.35 is 24.98 bps from 100.1.
        rig.push("100.35")
        #expect(client.take().isEmpty)
        // And again 60 s after the heartbeat, unchanged.
        rig.clock.advance(by: .seconds(60))
        #expect(Self.amounts(client.take()) == ["100.35#7"])
        // A delivery puts the next heartbeat 60 s after it.
        rig.clock.advance(by: .seconds(30))
        rig.push("101")
        #expect(Self.amounts(client.take()) == ["101#8"])
        rig.clock.advance(by: .seconds(59))
        #expect(client.take().isEmpty)
        rig.clock.advance(by: .seconds(1))
        #expect(Self.amounts(client.take()) == ["101#8"])
    }

    @Test func aClientWithoutARuleGetsEveryEventAndEachClientKeepsItsOwnLastValue() throws {
        let rig = Rig()
        defer { rig.hub.stop() }
        let everything = try rig.subscribe(DeliveryRule())
        let wide = try rig.subscribe(DeliveryRule(deviationBps: 100))
        let narrow = try rig.subscribe(DeliveryRule(deviationBps: 10))
        defer { everything.cancel(); wide.cancel(); narrow.cancel() }
        for amount in ["100", "100.1", "100.2", "101", "101.05"] { rig.push(amount) }
        #expect(Self.amounts(everything.take()) == ["100#1", "100.1#2", "100.2#3", "101#4", "101.05#5"])
        #expect(Self.amounts(wide.take()) == ["100#1", "101#4"])
        // 100.2 is 9.99 bps from 100.1, this client's last (10 bps from 100, another's view).
        #expect(Self.amounts(narrow.take()) == ["100#1", "100.1#2", "101#4"])
    }

    @Test func aResumedClientsHistoryIsFilteredFromThePriceItResumesFrom() throws {
        let rig = Rig()
        defer { rig.hub.stop() }
        let first = try rig.subscribe(DeliveryRule(deviationBps: 25))
        for amount in ["100", "100.25", "100", "99.999375", "100.1"] { rig.push(amount) }
        #expect(Self.amounts(first.take()) == ["100#1", "100.25#2", "99.999375#4"])
        first.cancel()
        // Back with the id of 100.25: 100 is within 25 bps of it; 99.999375 is not; 100.1 is within 25 bps of that.
        let resumed = try rig.subscribe(DeliveryRule(deviationBps: 25), after: "\(rig.epoch)-2")
        defer { resumed.cancel() }
        #expect(Self.amounts(resumed.take()) == ["99.999375#4"])
        rig.push("100.3")
        #expect(Self.amounts(resumed.take()) == ["100.3#6"])
    }

    @Test func aQuoteStrictlyOlderThanMaxAgeIsStaleOncePerEpisode() throws {
        let rig = Rig()
        defer { rig.hub.stop() }
        let client = try rig.subscribe(DeliveryRule(maxAge: .seconds(30)))
        defer { client.cancel() }
        // Exactly 30 s old: still a price.
        rig.push("100", age: .seconds(30))
        #expect(Self.amounts(client.take()) == ["100#1"])
        // 30.001 s: stale, said once, with the pair and the age; then silence while it stays stale.
        rig.push("101", age: .milliseconds(30_001))
        #expect(client.take() == [#"event: stale\#ndata: {"asset":"BTC","currency":"USD","ageMs":30001,"maxAgeMs":30000}\#n\#n"#])
        rig.push("102", age: .seconds(45))
        #expect(client.take().isEmpty)
        // A fresh price ends the episode; the next stale quote starts another.
        rig.push("103", age: .seconds(1))
        #expect(Self.amounts(client.take()) == ["103#4"])
        rig.push("104", age: .seconds(31))
        #expect(client.take().count == 1)
    }

    @Test func aHeartbeatOfAPriceGrownStaleIsTheStaleEventInstead() throws {
        let rig = Rig()
        defer { rig.hub.stop() }
        let client = try rig.subscribe(DeliveryRule(heartbeat: .seconds(60), maxAge: .seconds(30)))
        defer { client.cancel() }
        rig.push("100")
        #expect(Self.amounts(client.take()) == ["100#1"])
        rig.clock.advance(by: .seconds(60))
        #expect(client.take() == [#"event: stale\#ndata: {"asset":"BTC","currency":"USD","ageMs":60000,"maxAgeMs":30000}\#n\#n"#])
        rig.clock.advance(by: .seconds(60))
        #expect(client.take().isEmpty)
    }

    @Test(arguments: [("100", "100.25", "25", true), ("100", "100.2499", "25", false), ("100", "99.75", "25", true),
                      ("-100", "-100.25", "25", true), ("0", "0", "0", true), ("0", "0.00001", "25", true)])
    func theDeviationIsComparedExactly(last: String, new: String, bps: String, moved: Bool) throws {
        let last = try #require(DecimalAmount.parse(last)), new = try #require(DecimalAmount.parse(new))
        #expect(DeliveryRule.moved(from: last, to: new, bps: try #require(DecimalAmount.parse(bps))) == moved)
    }
}
