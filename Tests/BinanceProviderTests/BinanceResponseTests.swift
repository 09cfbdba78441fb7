import BinanceProviderLibrary
import Foundation
import PriceHostTesting
import ProviderABI
import Testing

struct BinanceResponseTests {
    static let btc = QuoteRequest(asset: "BTC", currency: "USD")
    static let receipt = Date(timeIntervalSince1970: 1_800_000_000)

    func quote(_ status: Int, _ text: String, headers: [HTTPHeader] = []) throws -> Quote {
        try BinanceResponse.quote(from: HTTPResponse(status: status, headers: headers, body: body(text)), for: Self.btc, symbol: "BTCUSDT",
                                  provider: "binance", now: Self.receipt)
    }

    @Test func priceIsTheExactAmountAtTheTimeOfReceipt() throws {
        #expect(try quote(200, #"{"symbol": "BTCUSDT", "price": "37000.12000000"}"#)
            == Quote(asset: "BTC", currency: "USD", amount: Decimal(string: "37000.12")!, provider: "binance", timestamp: Self.receipt))
    }

    /// Binance's `bookTicker` as it sends it (its fields and their order, from its API reference).
    static let recordedBook = #"{"symbol":"BTCUSDT","bidPrice":"37000.11000000","bidQty":"0.41002000","askPrice":"37000.12000000","askQty":"0.02011000"}"#

    func book(_ status: Int, _ text: String) throws -> (bid: Decimal?, ask: Decimal?) {
        try BinanceResponse.book(from: HTTPResponse(status: status, body: body(text)), for: Self.btc, symbol: "BTCUSDT")
    }

    @Test func theBookGivesItsBestBidAndAskExactly() throws {
        let sides = try book(200, Self.recordedBook)
        #expect(sides.bid == Decimal(string: "37000.11")! && sides.ask == Decimal(string: "37000.12")!)
    }

    @Test func aSideWithoutOrdersIsUnknown() throws {
        let sides = try book(200, #"{"symbol":"BTCUSDT","bidPrice":"0.00000000","bidQty":"0.00000000","askPrice":"37000.12000000","askQty":"1"}"#)
        #expect(sides.bid == nil && sides.ask == Decimal(string: "37000.12")!)
    }

    @Test(arguments: [
        (#"{"symbol":"BTCUSDT","bidPrice":"1e3","askPrice":"1"}"#, #"200 with an unexpected shape: bidPrice: not a decimal number of zero or more: "1e3" (BTC-USD)"#),
        (#"{"symbol":"BTCUSDT","bidPrice":"1","askPrice":"-1"}"#, #"200 with an unexpected shape: askPrice: not a decimal number of zero or more: "-1" (BTC-USD)"#),
        (#"{"symbol":"BTCUSDT","bidPrice":1,"askPrice":"1"}"#, "200 with an unexpected shape: bidPrice: expected a string, found a number (BTC-USD)"),
        (#"{"symbol":"ETHUSDT","bidPrice":"1","askPrice":"1"}"#, #"200 with an unexpected shape: symbol: a book for "ETHUSDT", not BTCUSDT (BTC-USD)"#),
    ])
    func anUnusableBookIsInvalidResponse(text: String, message: String) {
        #expect(throws: ProviderError(.invalidResponse, message)) { try book(200, text) }
    }

    @Test func theBooksOwnErrorIsPassedOn() {
        #expect(throws: ProviderError(.notFound, "-1121 Invalid symbol. (symbol BTCUSDT); HTTP 400 for BTC-USD")) {
            try book(400, #"{"code": -1121, "msg": "Invalid symbol."}"#)
        }
    }

    @Test(arguments: [
        ("", "200 with an empty body (BTC-USD)"),
        (#"{"symbol": "BTCUSDT", "price": "1""#, "200 with a body that is not JSON: line 1, column 35: expected ',' or '}' after an object member, found end of input (BTC-USD)"),
        (#"{"symbol": "BTCUSDT", "price": 37000.12}"#, "200 with an unexpected shape: price: expected a string, found a number (BTC-USD)"),
        (#"{"symbol": "ETHUSDT", "price": "1"}"#, #"200 with an unexpected shape: symbol: a price for "ETHUSDT", not BTCUSDT (BTC-USD)"#),
        (#"{"price": "1"}"#, "200 with an unexpected shape: symbol: missing (BTC-USD)"),
    ])
    func unusableAnswerIsInvalidResponse(text: String, message: String) {
        #expect(throws: ProviderError(.invalidResponse, message)) { try quote(200, text) }
    }

    @Test(arguments: [
        (400, #"{"code": -1121, "msg": "Invalid symbol."}"#, [], ProviderError(.notFound, "-1121 Invalid symbol. (symbol BTCUSDT); HTTP 400 for BTC-USD")),
        (400, #"{"code": -1100, "msg": "Illegal characters found in parameter 'symbol'."}"#, [],
         ProviderError(.invalidRequest, "-1100 Illegal characters found in parameter 'symbol'. (symbol BTCUSDT); HTTP 400 for BTC-USD")),
        (429, #"{"code": -1003, "msg": "Too many requests."}"#, [HTTPHeader("Retry-After", "7")],
         ProviderError(.unavailable, "-1003 Too many requests. (symbol BTCUSDT); HTTP 429 for BTC-USD; Retry-After: 7")),
        (418, #"{"code": -1003, "msg": "Way too many requests; IP banned until 1700000000000."}"#, [HTTPHeader("Retry-After", "120")],
         ProviderError(.unavailable, "this IP is banned for now after too many requests: -1003 Way too many requests; IP banned until 1700000000000. (symbol BTCUSDT); HTTP 418 for BTC-USD; Retry-After: 120")),
        (451, #"{"code": 0, "msg": "Service unavailable from a restricted location."}"#, [],
         ProviderError(.unavailable, "Binance does not serve this location (Binance.US is baseURL https://api.binance.us): 0 Service unavailable from a restricted location. (symbol BTCUSDT); HTTP 451 for BTC-USD")),
        (503, "", [], ProviderError(.unavailable, "no body (symbol BTCUSDT); HTTP 503 for BTC-USD")),
    ] as [(Int, String, [HTTPHeader], ProviderError)])
    func binancesOwnErrorIsPassedOn(status: Int, text: String, headers: [HTTPHeader], error: ProviderError) {
        #expect(throws: error) { try quote(status, text, headers: headers) }
    }

    @Test func longRestrictedLocationMessageKeepsTheWayOut() {
        let message = "Service unavailable from a restricted location according to 'b. Eligibility' in https://www.binance.com/en/terms. Please contact customer service if you believe you received this message in error."
        #expect(throws: ProviderError(.unavailable, "Binance does not serve this location (Binance.US is baseURL https://api.binance.us): 0 "
            + String(message.prefix(120)) + "… (symbol BTCUSDT); HTTP 451 for BTC-USD")) {
            try quote(451, #"{"code": 0, "msg": "\#(message)"}"#)
        }
    }
}
