import Foundation
@testable import PriceHostCore
@testable import PriceHostService
import ProviderABI
import Testing

/// The holder's relay queue: what waits goes in batches, oldest first, bounded.
struct RelayQueueTests {
    static func update(_ number: Int) throws -> StreamUpdate {
        let quote = Quote(asset: "BTC", currency: "USD", amount: try #require(DecimalAmount.parse("\(number)")), provider: "coinbase",
                          timestamp: Date(timeIntervalSince1970: 1_763_640_000))
        return StreamUpdate(quote: quote, source: .stream, receivedAt: Date(timeIntervalSince1970: 1_763_640_000))
    }

    static func numbers(_ batch: [StreamUpdate]) -> [String] { batch.map(\.amountText) }

    @Test func whatQueuedIsTakenInOrderInBatchesOfAtMost64() throws {
        let queue = RelayQueue()
        #expect(queue.take().isEmpty)
        for number in 1...150 { queue.push(try Self.update(number)) }
        let first = queue.take(), second = queue.take(), third = queue.take()
        #expect(Self.numbers(first) == (1...64).map(String.init))
        #expect(Self.numbers(second) == (65...128).map(String.init))
        #expect(Self.numbers(third) == (129...150).map(String.init))
        #expect(queue.take().isEmpty)
    }

    @Test func pastItsCapacityTheOldestIsDropped() throws {
        let queue = RelayQueue()
        for number in 1...(RelayQueue.capacity + 3) { queue.push(try Self.update(number)) }
        var taken: [String] = []
        // Bounded: the capacity in batches, and one more.
        for _ in 0...(RelayQueue.capacity / RelayQueue.batch + 1) {
            let batch = queue.take()
            if batch.isEmpty { break }
            taken += Self.numbers(batch)
        }
        #expect(taken.count == RelayQueue.capacity)
        #expect(taken.first == "4" && taken.last == String(RelayQueue.capacity + 3))
    }

    @Test func pushesWakeTheRelayingLoopWhichTakesAllThatWaits() async throws {
        let queue = RelayQueue()
        for number in 1...5 { queue.push(try Self.update(number)) }
        var signals = queue.signals.makeAsyncIterator()
        // Woken after five pushes, the loop takes all five in one batch: one round trip.
        #expect(await signals.next() != nil)
        #expect(queue.take().count == 5)
    }
}
