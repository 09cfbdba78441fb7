import Foundation
@testable import PriceHostCore
import Testing

/// One pair's rule for one client, decision by decision.
struct DeliveryPairTests {
    let start = ContinuousClock.now
    let wall = Date(timeIntervalSince1970: 1_795_702_800)

    @Test func aFreshPriceEndsAStaleEpisodeEvenIfItMovedTooLittle() {
        let rule = DeliveryRule(deviationBps: 25, maxAge: .seconds(30))
        var pair = DeliveryPair(since: start)
        #expect(pair.offer(100, at: wall, rule: rule, now: start, wallNow: wall) == .deliver)
        #expect(pair.offer(100, at: wall.addingTimeInterval(-31), rule: rule, now: start, wallNow: wall) == .stale(ageMilliseconds: 31_000))
        #expect(pair.offer(100, at: wall.addingTimeInterval(-40), rule: rule, now: start, wallNow: wall) == .skip)
        // Unchanged, but live again: the client must hear the pair is back.
        #expect(pair.offer(100, at: wall, rule: rule, now: start, wallNow: wall) == .deliver)
        #expect(pair.offer(100.1, at: wall, rule: rule, now: start, wallNow: wall) == .skip)
    }

    @Test func aHeartbeatIsDeliveredWhateverTheDeviationAndTimesTheNext() {
        let rule = DeliveryRule(deviationBps: 25, heartbeat: .seconds(60))
        var pair = DeliveryPair(since: start)
        #expect(!pair.heartbeatDue(rule, at: start + .seconds(59)))
        #expect(pair.heartbeatDue(rule, at: start + .seconds(60)))
        #expect(pair.offer(100, at: wall, rule: rule, now: start, wallNow: wall) == .deliver)
        #expect(pair.offer(100, at: wall, rule: rule, heartbeat: true, now: start + .seconds(60), wallNow: wall) == .deliver)
        #expect(pair.lastDeliveredAt == start + .seconds(60))
        #expect(!pair.heartbeatDue(rule, at: start + .seconds(119)))
    }
}
