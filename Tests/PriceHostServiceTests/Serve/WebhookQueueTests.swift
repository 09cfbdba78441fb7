@testable import PriceHostService
import Testing

/// One webhook's bounded queue: past its capacity the oldest waiting body goes.
struct WebhookQueueTests {
    @Test func aFullQueueDropsItsOldestAndSaysHowMany() {
        let queue = WebhookQueue()
        let bodies = (0..<(WebhookQueue.capacity + 6)).map { Array(String($0).utf8) }
        #expect(queue.push(Array(bodies.prefix(WebhookQueue.capacity))) == 0)
        #expect(queue.push(Array(bodies.suffix(6))) == 6)
        // The six oldest are gone; the rest come in order.
        #expect(queue.pop() == Array("6".utf8))
        var count = 1
        while queue.pop() != nil { count += 1 }
        #expect(count == WebhookQueue.capacity)
        #expect(queue.push([]) == 0)
    }
}
