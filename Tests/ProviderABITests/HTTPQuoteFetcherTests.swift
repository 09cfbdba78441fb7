import Foundation
import PriceHostTesting
import ProviderABI
import Testing

struct HTTPQuoteFetcherTests {
    static let url = "http://127.0.0.1:9/BTC-USD"

    func fetcher(_ http: SimulatedHTTPClient) -> HTTPQuoteFetcher {
        HTTPQuoteFetcher(http: http) { request in
            guard request.currency == "USD" else { throw ProviderError(.notFound, "USD only") }
            return HTTPRequest(url: "http://127.0.0.1:9/\(request.pair)")
        } read: { response, request in
            Quote(asset: request.asset, currency: request.currency, amount: DecimalAmount.parse(String(decoding: response.body, as: UTF8.self)) ?? 0,
                  provider: "test", timestamp: Date(timeIntervalSince1970: 0))
        }
    }

    @Test func sendsTheBuiltRequestAndReadsTheAnswer() async throws {
        let http = SimulatedHTTPClient([Self.url: HTTPResponse(status: 200, body: body("64000.5"))])
        let quote = try await fetcher(http).fetchQuote(for: QuoteRequest(asset: "BTC", currency: "USD"))
        #expect(quote.amount == Decimal(string: "64000.5"))
        #expect(http.received == [HTTPRequest(url: Self.url)])
    }

    @Test func requestThatCannotBeBuiltCostsNoRequest() async {
        let http = SimulatedHTTPClient([:])
        await #expect(throws: ProviderError(.notFound, "USD only")) {
            try await fetcher(http).fetchQuote(for: QuoteRequest(asset: "BTC", currency: "EUR"))
        }
        #expect(http.received.isEmpty)
    }
}
