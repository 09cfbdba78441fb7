import FoundationEssentials
import PriceHostCore
@testable import PriceHostService
import ProviderABI
import Testing

/// A feed update as the fleet relays it through Redis: the update as `watch --stream` prints it,
/// read back with its bid and ask (ABI 1.4) exact, so a relayed SSE event says what the holder's did.
struct FleetFeedCodecTests {
    static let pair = QuoteRequest(asset: "BTC", currency: "USD")

    static func update(bid: String?, ask: String?) throws -> StreamUpdate {
        let quote = Quote(asset: "BTC", currency: "USD", amount: try #require(DecimalAmount.parse("64000.1")), provider: "coinbase",
                          timestamp: Date(timeIntervalSince1970: 1_795_176_000.283),
                          bid: bid.flatMap(DecimalAmount.parse(_:)), ask: ask.flatMap(DecimalAmount.parse(_:)))
        return StreamUpdate(quote: quote, source: .stream, receivedAt: Date(timeIntervalSince1970: 1_795_176_000.301))
    }

    static func decode(_ text: String) -> StreamUpdate? {
        FleetFeedCodec.decode(Array("7 ".utf8) + Array(text.utf8), provider: "coinbase", pair: pair, epoch: 1)?.update
    }

    @Test(arguments: [("64000.09", "64000.10"), (nil, "64000.1"), (nil, nil)] as [(String?, String?)])
    func anUpdateComesBackWithItsBidAndAsk(bid: String?, ask: String?) throws {
        let update = try Self.update(bid: bid, ask: ask)
        let payload = FleetFeedCodec.payload(update, publishedMilliseconds: 1_795_176_000_400)
        let back = try #require(Self.decode(payload))
        #expect(back.quote == update.quote)
        #expect(back.json == update.json)
        #expect([back.amountText, back.bidText, back.askText] == [update.amountText, update.bidText, update.askText])
    }

    @Test func aBidThatIsNoPriceIsNoEvent() throws {
        let good = try Self.update(bid: "64000.09", ask: "64000.1").json
        #expect(Self.decode("1 " + good) != nil)
        #expect(Self.decode("1 " + good.replacingOccurrences(of: #""bid":"64000.09""#, with: #""bid":"-1""#)) == nil)
        #expect(Self.decode("1 " + good.replacingOccurrences(of: #""bid":"64000.09""#, with: #""bid":64000.09"#)) == nil)
    }
}
