import Foundation
@testable import PriceHost
@testable import PriceHostCore
import ProviderABI
import Testing

/// `--max-age` and `maxAgeSeconds`: a quote older than the limit, strictly and to the millisecond, is
/// not given as a price; one given has its `status`.
struct MaxAgeTests {
    /// The fixture's quotes are stamped at the epoch: `now` at `seconds` past it makes them that old.
    func service(at seconds: Double) throws -> QuoteService {
        let fixture = try QuoteServiceTests()
        return QuoteService(container: fixture.container, catalog: fixture.catalog, now: { Date(timeIntervalSince1970: seconds) })
    }

    @Test func aQuoteExactlyAtTheLimitIsGivenAndOneMillisecondOlderIsRefused() async throws {
        let limit = MaxAge(milliseconds: 30_000, name: "--max-age")
        let atLimit = try service(at: 30)
        let route = try atLimit.route(asset: "SOL", explicitProviders: nil)
        let given = try await atLimit.fetch([route], currency: "USD", maxAge: limit)[0].get()
        #expect(given.amount == 100)
        #expect(given.status == .live)

        let past = try service(at: 30.001)
        let refused = await past.fetch([route], currency: "USD", maxAge: limit)[0]
        #expect(throws: QuoteFailure.self) { try refused.get() }
        guard case .failure(let failure as QuoteFailure) = refused else { return }
        #expect(failure.description == "file: quote for SOL-USD is 30.001 s old (from 1970-01-01T00:00:00Z); --max-age is 30 s")
        #expect(failure.ageMilliseconds == 30_001)
        #expect(failure.whyExcluded == "stale: 30.001 s old, --max-age 30")
    }

    @Test func withoutALimitTheQuoteIsLiveAndTheCacheAnswersTheSame() async throws {
        let service = try service(at: 86_400)
        let route = try service.route(asset: "BTC", explicitProviders: nil)
        let quote = try await service.fetch([route], currency: "USD")[0].get()
        #expect(quote.status == .live)
        #expect(quote.amount == 101)
    }

    @Test func aMedianLeavesOutASourceOlderThanTheLimitAndSaysWhy() async throws {
        let service = try service(at: 60)
        let route = try service.route(asset: "BTC", explicitProviders: ["file", "peg"])
        let limit = MaxAge(milliseconds: 59_999, name: "maxAgeSeconds")
        let (result, failures) = await service.aggregate([route], currency: "USD", maxAge: limit)[0]
        #expect(throws: QuoteFailure.self) { try result.get() }
        #expect(failures.isEmpty)
        guard case .failure(let failure) = result else { return }
        #expect(failure.message.contains("quote for BTC-USD is 60 s old (from 1970-01-01T00:00:00Z); maxAgeSeconds is 59.999 s"), "\(failure)")
    }

    @Test(arguments: [("30s", 30_000), ("500ms", 500), ("2m", 120_000), ("1.5m", 90_000), ("1h", 3_600_000), ("30", 30_000), ("0.25", 250)])
    func maxAgeTakesADurationWithItsUnit(text: String, milliseconds: Int) throws {
        var options = QuoteOptions()
        try QuoteOptions.maxAge.apply(&options, text)
        #expect(options.maxAgeMilliseconds == milliseconds)
    }

    @Test(arguments: ["", "s", "30x", "-1s", "30 s", "1d", "0s", "9000h"])
    func maxAgeRefusesWhatIsNoDurationAboveZero(text: String) {
        var options = QuoteOptions()
        #expect(throws: UsageError.self) { try QuoteOptions.maxAge.apply(&options, text) }
        #expect(options.maxAgeMilliseconds == nil)
    }
}
