@testable import PriceHostService
import Testing

/// What a topic keeps for `Last-Event-ID`: the events of the last 60 s, at most 600, oldest first.
struct StreamHistoryTests {
    let start = ContinuousClock.now

    @Test func eventsAfterAnIDComeOldestFirst() {
        var history = StreamHistory()
        for sequence in UInt64(1)...5 { history.append("e\(sequence)", sequence: sequence, at: start) }
        #expect(history.entries(after: 2).map(\.event) == ["e3", "e4", "e5"])
        #expect(history.entries(after: 5).map(\.event) == [])
        #expect(history.newest?.event == "e5")
    }

    @Test func pastItsCapacityTheOldestGo() {
        var history = StreamHistory()
        let total = UInt64(StreamHistory.capacity + 10)
        for sequence in UInt64(1)...total { history.append("e\(sequence)", sequence: sequence, at: start) }
        let kept = history.entries(after: 0).map(\.event)
        #expect(kept.count == StreamHistory.capacity)
        #expect(kept.first == "e11" && kept.last == "e\(total)")
        #expect(history.newest?.event == "e\(total)")
    }

    @Test func eventsOlderThanTheRetentionExpire() {
        var history = StreamHistory()
        history.append("old", sequence: 1, at: start)
        history.append("new", sequence: 2, at: start + .seconds(30))
        history.expire(before: start + StreamHistory.retention + .seconds(1))
        #expect(history.entries(after: 0).map(\.event) == ["new"])
        #expect(!history.isExpired(at: start + .seconds(89)))
        #expect(history.isExpired(at: start + .seconds(90)))
        #expect(StreamHistory().isExpired(at: start))
    }

    @Test(arguments: [("1732630000123-42", EventID(epoch: 1_732_630_000_123, sequence: 42))])
    func anIDReadsBack(text: String, id: EventID) {
        #expect(EventID(parsing: text) == id)
        #expect(id.text == text)
    }

    @Test(arguments: ["", "-", "1-", "-1", "1-2-3", "a-1", "1-1 ", "99999999999999999999999-1", "١-١"])
    func anythingElseIsNoID(text: String) {
        #expect(EventID(parsing: text) == nil)
    }
}
