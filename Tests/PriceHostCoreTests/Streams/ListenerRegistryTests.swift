import ConcurrencyHelpers
import FoundationEssentials
@testable import PriceHostCore
import ProviderABI
import Testing

/// The listeners of a feed's pairs: a new listener gets the pair's last update at once, and a
/// pair goes with its last listener.
struct ListenerRegistryTests {
    static func update(_ amount: String) -> StreamUpdate {
        let quote = Quote(asset: "BTC", currency: "USD", amount: DecimalAmount.parse(amount) ?? 0, provider: "p",
                          timestamp: Date(timeIntervalSince1970: 0))
        return StreamUpdate(quote: quote, source: .stream, receivedAt: Date(timeIntervalSince1970: 0))
    }

    @Test func aNewListenerGetsTheLastUpdateThenEachLaterOne() {
        let pair = QuoteRequest(asset: "BTC", currency: "USD")
        var registry = ListenerRegistry()
        registry.deliver(Self.update("1"), to: pair)
        let received = Lock<[String]>([])
        let first = registry.add({ update in received.withLock { $0.append(update.amountText) } }, for: pair)
        #expect(first.isFirst)
        #expect(!registry.add({ _ in }, for: pair).isFirst)
        registry.deliver(Self.update("2"), to: pair)
        #expect(received.withLock { $0 } == ["1", "2"])
        registry.remove(first.id, from: pair)
        registry.deliver(Self.update("3"), to: pair)
        #expect(received.withLock { $0 } == ["1", "2"])
        #expect(registry.pairs == [pair])
    }

    @Test func aPairGoesWithItsLastListener() {
        let pair = QuoteRequest(asset: "ETH", currency: "EUR")
        var registry = ListenerRegistry()
        let one = registry.add({ _ in }, for: pair), two = registry.add({ _ in }, for: pair)
        registry.remove(one.id, from: pair)
        #expect(registry.pairs == [pair])
        registry.remove(two.id, from: pair)
        #expect(registry.pairs.isEmpty)
        #expect(registry.add({ _ in }, for: pair).isFirst)
    }
}
