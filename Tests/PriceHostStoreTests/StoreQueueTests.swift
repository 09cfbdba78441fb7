@testable import PriceHostStore
import Testing

/// The writer's queue hands a written batch's storage back for the quotes to come, so that a stream's
/// thread pushing a quote appends within capacity instead of copying the batch into a larger buffer.
struct StoreQueueTests {
    static let quotes = (0..<300).map { QuoteStoreTests.quote("\(100 + $0)", at: Int64($0) * 1_000) }

    @Test func aWrittenBatchsStorageTakesTheNextQuotesInOrderWithoutGrowing() throws {
        let queue = StoreQueue(capacity: 1_000)
        for quote in Self.quotes[..<100] { queue.push(quote) }
        let first = try #require(queue.take(due: 0))
        #expect(first == Array(Self.quotes[..<100]))
        // The quotes pushed while the writer writes go where the last batch's storage went; the written batch's is next.
        for quote in Self.quotes[100..<105] { queue.push(quote) }
        queue.recycle(first)
        let second = try #require(queue.take(due: 0))
        #expect(second == Array(Self.quotes[100..<105]))
        // Room for twice the written batch before any push: 195 more do not grow it.
        #expect(queue.room >= 200)
        for quote in Self.quotes[105...] { queue.push(quote) }
        #expect(queue.room >= 5)
        queue.recycle(second)
        #expect(queue.take(due: 0) == Array(Self.quotes[105...]))
        #expect(queue.depth == 0)
    }

    /// A backlog written at once (after an outage) does not leave its storage held for good.
    @Test func aHugeBatchsStorageIsNotKept() throws {
        let queue = StoreQueue(capacity: 100_000)
        let quote = Self.quotes[0]
        for _ in 0..<50_000 { queue.push(quote) }
        let backlog = try #require(queue.take(due: 0))
        #expect(backlog.count == 50_000)
        queue.push(quote)
        queue.recycle(backlog)
        #expect(queue.take(due: 0)?.count == 1)
        #expect(queue.room <= 16_384)
    }

    @Test func aBatchPutBackIsTakenAgainFirst() throws {
        let queue = StoreQueue(capacity: 1_000)
        for quote in Self.quotes[..<10] { queue.push(quote) }
        let batch = try #require(queue.take(due: 0))
        for quote in Self.quotes[10..<15] { queue.push(quote) }
        queue.requeue(batch)
        #expect(queue.take(due: 0) == Array(Self.quotes[..<15]))
    }
}
