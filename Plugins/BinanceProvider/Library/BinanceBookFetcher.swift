import FoundationEssentials
import ProviderABI

/// A Binance quote with the book's best bid and ask (``BinanceSettings/bidAsk``): the last price
/// from `GET {baseURL}/api/v3/ticker/price?symbol=BTCUSDT`, as without the setting, and beside it,
/// at the same time, `GET {baseURL}/api/v3/ticker/bookTicker?symbol=BTCUSDT` for the bid and ask
/// (``BinanceResponse/book(from:for:symbol:)``). `bookTicker` has no last price, so it accompanies
/// the price's request rather than replacing it: two requests a quote, each of weight 2.
///
/// Either answer's failure fails the quote, the price's first: asked for the bid and ask, a quote
/// without them would look like one from a book that has none.
public struct BinanceBookFetcher: PriceFetcher {
    /// The fetcher of the last price.
    public let price: HTTPQuoteFetcher
    /// Where the book's URL and symbol come from.
    public let settings: BinanceSettings

    /// Creates a fetcher asking `price` and the book through `price`'s HTTP client.
    public init(price: HTTPQuoteFetcher, settings: BinanceSettings) {
        self.price = price
        self.settings = settings
    }

    /// The GET of the book for `request`.
    /// - Throws: ``ProviderError`` `.notFound` for USD without an alias, as ``BinanceSettings/symbol(for:)``.
    public func bookRequest(for request: QuoteRequest) throws -> HTTPRequest {
        HTTPRequest(url: "\(settings.baseURL)/api/v3/ticker/bookTicker?symbol=\(try settings.symbol(for: request))",
                    headers: [HTTPHeader("Accept", "application/json")])
    }

    /// The last price with the book's bid and ask.
    /// - Throws: ``ProviderError``: the price's failure, else the book's.
    public func fetchQuote(for request: QuoteRequest) async throws -> Quote {
        let symbol = try settings.symbol(for: request)
        let book = try bookRequest(for: request)
        async let bookAnswer = price.http.get(book)
        var quote: Quote
        do {
            quote = try await price.fetchQuote(for: request)
        } catch {
            _ = try? await bookAnswer
            throw error
        }
        let sides = try BinanceResponse.book(from: try await bookAnswer, for: request, symbol: symbol)
        quote.bid = sides.bid
        quote.ask = sides.ask
        return quote
    }
}
