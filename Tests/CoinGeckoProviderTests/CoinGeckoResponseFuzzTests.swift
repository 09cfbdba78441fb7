import CoinGeckoProviderLibrary
import Foundation
import PriceHostFuzzing
import PriceHostTestTraits
import PriceHostTesting
import ProviderABI
import Testing

/// Seeded, bounded fuzzing of ``CoinGeckoResponse`` and of the exact reading
/// of JSON numbers it relies on (see docs/FUZZING.md).
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct CoinGeckoResponseFuzzTests {
    @Test func mutatedAnswersGiveAQuoteOrAProviderError() throws {
        let tally = try QuoteResponseFuzzing.run("CoinGeckoResponseFuzzTests/mutated", corpus: [
            #"{"bitcoin":{"usd":37000.12,"last_updated_at":1700000000}}"#,
            #"{"bitcoin":{"usd":1.234e-05}}"#,
            #"{"bitcoin":{}}"#,
            "{}",
            #"{"status":{"error_code":429,"error_message":"You've exceeded the Rate Limit."}}"#,
            #"{"error":"coin not found"}"#,
        ], tokens: [#""bitcoin""#, #""usd""#, #""last_updated_at""#, #""status""#, #""error""#, "1e-05", "E+3", "e400"],
           requests: [QuoteRequest(asset: "BTC", currency: "USD")]) { response, request in
            try CoinGeckoResponse.quote(from: response, for: request, id: "bitcoin", provider: "coingecko")
        }
        #expect(tally.values > 0 && tally.errors > 0, "\(tally)")
    }

    /// Random JSON numbers: the exact reading agrees with Foundation's
    /// `Decimal(string:)` (an independent parser), and prints back as its plain notation.
    @Test func jsonNumbersAreReadAsFoundationReadsThem() throws {
        let tally = try FuzzRun().loop("CoinGeckoResponseFuzzTests/numbers", iterations: 5_000) { random, _ in
            func digits(_ count: Int) -> String { String((0..<count).map { _ in Character(String(random.below(10))) }) }
            var text = random.chance(1, in: 4) ? "-" : ""
            text += random.chance(1, in: 3) ? "0" : String(1 + random.below(9)) + digits(random.below(12))
            if random.chance(2, in: 3) { text += "." + digits(1 + random.below(15)) }
            if random.chance(2, in: 3) {
                text += random.pick(["e", "E"]) + random.pick(["", "+", "-"]) + String(random.below(40))
            }
            return text
        } describe: { text in
            text
        } check: { text in
            guard let plain = DecimalAmount.plainNotation(ofJSONNumber: text) else { return .problem("refused") }
            guard let amount = DecimalAmount.parse(jsonNumber: text) else {
                // Past 38 significant digits is refused, as in plain notation.
                return DecimalAmount.parse(plain) == nil ? .error : .problem("refused, though \(plain) parses")
            }
            guard let oracle = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), oracle == amount else {
                return .problem("\(amount), but Decimal(string:) reads \(String(describing: Decimal(string: text)))")
            }
            guard DecimalAmount.format(amount) == plain || (amount == 0 && plain == "0") else {
                return .problem("prints as \(DecimalAmount.format(amount)), not \(plain)")
            }
            return .value
        }
        #expect(tally.values > 0, "\(tally)")
    }
}
