import Foundation
@testable import PriceHostCore
import ProviderABI
import Testing

/// A cross rate's arithmetic, to the digit (the expected digits are Python's `decimal`, 18 digits,
/// ROUND_HALF_EVEN), and the quote it makes of its legs.
struct CrossRateTests {
    func amount(_ text: String) throws -> Decimal { try #require(DecimalAmount.parse(text)) }

    @Test func aProductIsExact() throws {
        let product = try #require(CrossRate.product(try amount("3120.48"), try amount("0.9223")))
        #expect(DecimalAmount.format(product) == "2878.018704")
        let wide = try #require(CrossRate.product(try amount("1234567890.123456789"), try amount("9876543210.987654321")))
        #expect(DecimalAmount.format(wide) == "12193263113702179522.374638011112635269")
    }

    @Test func aProductBeyond38DigitsIsRoundedHalfEvenTo38() throws {
        // 57 exact digits: 152415787532388367504953515625361987875.019051998750190521
        let factor = try amount("12345678901234567890.123456789")
        let product = try #require(CrossRate.product(factor, factor))
        #expect(DecimalAmount.format(product) == "152415787532388367504953515625361987880")
    }

    @Test func aQuotientIsRoundedHalfEvenTo18SignificantDigits() throws {
        // 2878.140564471499723298…: the 19th digit is 2.
        #expect(DecimalAmount.format(try #require(CrossRate.quotient(try amount("3120.48"), try amount("1.0842")))) == "2878.14056447149972")
        #expect(DecimalAmount.format(try #require(CrossRate.quotient(1, 3))) == "0.333333333333333333")
        #expect(DecimalAmount.format(try #require(CrossRate.quotient(2, 3))) == "0.666666666666666667")
        // Exact quotients keep only their digits.
        #expect(DecimalAmount.format(try #require(CrossRate.quotient(try amount("3000"), try amount("1.5")))) == "2000")
        #expect(DecimalAmount.format(try #require(CrossRate.quotient(1, 8))) == "0.125")
    }

    @Test func aTieAtThe19thDigitGoesToTheEvenDigit() throws {
        // 617283945061728394.5 and 617283945061728395.5: exact ties, the remainder is zero.
        #expect(DecimalAmount.format(try #require(CrossRate.quotient(try amount("1234567890123456789"), 2))) == "617283945061728394")
        #expect(DecimalAmount.format(try #require(CrossRate.quotient(try amount("1234567890123456791"), 2))) == "617283945061728396")
        // Just above a tie, in a digit past the 19th: up.
        #expect(DecimalAmount.format(try #require(CrossRate.quotient(try amount("1234567890123456785.0000000001"), 10)))
            == "123456789012345679")
        // A carry through nines lengthens the number.
        #expect(DecimalAmount.format(try #require(CrossRate.quotient(try amount("9999999999999999999.6"), 1))) == "10000000000000000000")
    }

    @Test func legsOf38DigitsAndFarExponentsDivideExactly() throws {
        let wide = try #require(CrossRate.quotient(try amount("98765432109876543210987654321098765432"),
                                                   try amount("0.12345678901234567890123456789012345678")))
        #expect(wide == Decimal(sign: .plus, exponent: 21, significand: Decimal(string: "800000007290000066")!))
        let small = try #require(CrossRate.quotient(Decimal(sign: .plus, exponent: -100, significand: 1), 3))
        #expect(small == Decimal(sign: .plus, exponent: -118, significand: Decimal(string: "333333333333333333")!))
    }

    @Test func zeroDivisorAndResultsBeyondDecimalAreNil() throws {
        #expect(CrossRate.quotient(1, 0) == nil)
        let tiny = Decimal(sign: .plus, exponent: -100, significand: 1)
        #expect(CrossRate.product(tiny, tiny) == nil)
    }

    static let t0 = Date(timeIntervalSince1970: 1_763_640_000)

    func quote(_ asset: String, _ currency: String, _ text: String, bid: String? = nil, ask: String? = nil,
               provider: String = "venue", at time: Date = t0, status: QuoteStatus? = nil) throws -> Quote {
        var quote = Quote(asset: asset, currency: currency, amount: try amount(text), provider: provider, timestamp: time,
                          bid: try bid.map(amount), ask: try ask.map(amount))
        quote.status = status
        return quote
    }

    @Test func aQuotientLegIsBoughtAtItsAsk() throws {
        let ethUSD = try quote("ETH", "USD", "3120.48", bid: "3120.4", ask: "3120.6", provider: "coinbase", status: .live)
        let eurUSD = try quote("EUR", "USD", "1.0842", bid: "1.0841", ask: "1.0843", provider: "bitstamp",
                               at: Self.t0.addingTimeInterval(-5), status: .stale)
        let derived = try CrossRate.quote(asset: "ETH", currency: "EUR", first: ethUSD, second: eurUSD, shape: .quotient).get()
        #expect(derived.amount == (try amount("2878.14056447149972")))
        // bid: 3120.4 / 1.0843, ask: 3120.6 / 1.0841 (Python's decimal, 18 digits, half-even).
        #expect(derived.bid.map(DecimalAmount.format) == "2877.80134649082357")
        #expect(derived.ask.map(DecimalAmount.format) == "2878.51674199797067")
        #expect(derived.provider == "cross")
        #expect(derived.timestamp == Self.t0.addingTimeInterval(-5))
        #expect(derived.status == .stale)
        #expect(derived.derivedFrom == [ethUSD, eurUSD])
    }

    @Test func aProductUsesBothBidsAndBothAsks() throws {
        let ethUSD = try quote("ETH", "USD", "3120.48", bid: "3120.4", ask: "3120.6")
        let usdEUR = try quote("USD", "EUR", "0.9223", bid: "0.9222", ask: "0.9224", at: Self.t0.addingTimeInterval(3))
        let derived = try CrossRate.quote(asset: "ETH", currency: "EUR", first: ethUSD, second: usdEUR, shape: .product).get()
        #expect(DecimalAmount.format(derived.amount) == "2878.018704")
        #expect(derived.bid.map(DecimalAmount.format) == "2877.63288")
        #expect(derived.ask.map(DecimalAmount.format) == "2878.44144")
        #expect(derived.timestamp == Self.t0)
        #expect(derived.status == nil)
    }

    @Test func anInverseSwapsTheBidAndTheAsk() throws {
        let eurUSD = try quote("EUR", "USD", "1.0842", bid: "1.0841", ask: "1.0843", status: .live)
        let derived = try CrossRate.quote(asset: "USD", currency: "EUR", first: nil, second: eurUSD, shape: .inverse).get()
        #expect(DecimalAmount.format(derived.amount) == "0.922339051835454713")
        #expect(derived.bid.map(DecimalAmount.format) == "0.922253988748501337")
        #expect(derived.ask.map(DecimalAmount.format) == "0.922424130615256895")
        #expect(derived.status == .live)
        #expect(derived.derivedFrom == [eurUSD])
    }

    @Test func aBidOrAskIsCarriedOnlyWhenBothSidesAreKnown() throws {
        let ethUSD = try quote("ETH", "USD", "3120.48", bid: "3120.4")
        let eurUSD = try quote("EUR", "USD", "1.0842", bid: "1.0841", ask: "1.0843")
        let derived = try CrossRate.quote(asset: "ETH", currency: "EUR", first: ethUSD, second: eurUSD, shape: .quotient).get()
        #expect(derived.bid != nil)
        #expect(derived.ask == nil)
    }

    @Test func aZeroDivisorNamesTheLeg() throws {
        let ethUSD = try quote("ETH", "USD", "3120.48")
        let eurUSD = try quote("EUR", "USD", "0")
        #expect(throws: CrossRateError("EUR-USD is 0")) {
            try CrossRate.quote(asset: "ETH", currency: "EUR", first: ethUSD, second: eurUSD, shape: .quotient).get()
        }
    }

    @Test func theWorseStatusWins() {
        #expect(CrossRate.worse([.live, .stale]) == .stale)
        #expect(CrossRate.worse([nil, .stale]) == .stale)
        #expect(CrossRate.worse([.live, nil]) == .live)
        #expect(CrossRate.worse([nil, nil]) == nil)
    }

    @Test func theJSONListsTheLegsAfterTheQualityMembersAndBeforeTheAge() throws {
        let ethUSD = try quote("ETH", "USD", "3120.48", bid: "3120.4", ask: "3120.6", provider: "coinbase", status: .live)
        let eurUSD = try quote("EUR", "USD", "1.0842", bid: "1.0841", ask: "1.0843", provider: "bitstamp", status: .live)
        let derived = try CrossRate.quote(asset: "ETH", currency: "EUR", first: ethUSD, second: eurUSD, shape: .quotient).get()
        #expect(QuoteFormatter.json(derived, at: Self.t0.addingTimeInterval(1.5)) == """
            {"asset":"ETH","currency":"EUR","amount":"2878.14056447149972","provider":"cross","timestamp":"2025-11-20T12:00:00Z",\
            "bid":"2877.80134649082357","ask":"2878.51674199797067","status":"live",\
            "derivedFrom":[{"pair":"ETH-USD","provider":"coinbase","amount":"3120.48"},{"pair":"EUR-USD","provider":"bitstamp","amount":"1.0842"}],"ageMs":1500}
            """)
        // A quote asked directly has no such member.
        #expect(!QuoteFormatter.json(ethUSD).contains("derivedFrom"))
    }
}
