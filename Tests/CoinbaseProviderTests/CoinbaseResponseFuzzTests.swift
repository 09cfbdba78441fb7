import CoinbaseProviderLibrary
import Foundation
import ProviderABI
import PriceHostFuzzing
import PriceHostTestTraits
import Testing

/// Seeded, bounded fuzzing of ``CoinbaseResponse``: whatever the status and
/// body, the only outcomes allowed are the asked-for quote at a positive
/// price, or a ``ProviderError`` naming the pair. See docs/FUZZING.md.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct CoinbaseResponseFuzzTests {
    private static let now = Date(timeIntervalSince1970: 1_795_176_000)

    private static let corpus: [[UInt8]] = [
        #"{"data":{"base":"BTC","currency":"USD","amount":"15840.01"}}"#,
        #"{"data":{"amount":"0.000000000000000001","base":"btc","currency":"usd"},"warnings":[{"id":"missing_version","message":"Please supply API version (YYYY-MM-DD) as CB-VERSION header"}]}"#,
        #"{"errors":[{"id":"not_found","message":"Invalid base currency"}]}"#,
        #"{"errors":[{"id":"rate_limit_exceeded","message":"Too many requests"}]}"#,
        #"{"errors":[]}"#,
        "<html><body>502 Bad Gateway</body></html>",
        "",
        "\u{FEFF}{\"data\":{\"base\":\"ETH\",\"currency\":\"EUR\",\"amount\":\"2941.90\"}}",
    ].map { Array($0.utf8) }

    private static let tokens = Mutator.commonTokens + [
        "\"data\"", "\"amount\"", "\"base\"", "\"currency\"", "\"errors\"", "\"id\"", "\"message\"", "\"BTC\"", "\"USD\"",
        "\"-1\"", "\"0\"", "\"0.0\"", "\"1e3\"", "\"15840,01\"", "\"ß\"", "\"\\n\"", "\"\\u001b[31m\"",
        String(repeating: "x", count: 500),
    ].map { Array($0.utf8) }

    private static let mutator = Mutator(corpus: corpus, tokens: tokens)
    private static let statuses = [200, 200, 200, 200, 404, 429, 500, 503, 599, 400, 401, 403, 302, 204, 0, -1, 999, Int.max, Int.min]
    private static let requests = [QuoteRequest(asset: "BTC", currency: "USD"), QuoteRequest(asset: "BTC", currency: "USD"),
                                   QuoteRequest(asset: "ETH", currency: "EUR"), QuoteRequest(asset: "SS", currency: "USD")]

    @Test func mutatedResponsesGiveAQuoteOrAProviderError() throws {
        let run = try FuzzRun()
        let tally = run.loop("CoinbaseResponseFuzzTests/mutated", iterations: 12_000) { random, iteration in
            let body = iteration < Self.corpus.count ? Self.corpus[iteration] : Self.mutator.mutate(using: &random)
            return (iteration < Self.corpus.count ? 200 : random.pick(Self.statuses), body, random.pick(Self.requests))
        } describe: { input in
            "status \(input.0), request \(input.2.pair), body \(FuzzText.describe(input.1))"
        } check: { input in
            Self.check(status: input.0, body: input.1, request: input.2)
        }
        #expect(tally.values > 0 && tally.errors > 0, "\(tally)")
    }

    @Test func randomResponsesGiveAQuoteOrAProviderError() throws {
        let run = try FuzzRun()
        let alphabet = Array(#"{}[]":,-.0123456789 datbsecurnyBTCUSDmoi"#.utf8)
        let tally = run.loop("CoinbaseResponseFuzzTests/random", iterations: 5_000) { random, _ in
            (random.pick(Self.statuses), Mutator.randomBytes(using: &random, alphabet: alphabet), random.pick(Self.requests))
        } describe: { input in
            "status \(input.0), request \(input.2.pair), body \(FuzzText.describe(input.1))"
        } check: { input in
            Self.check(status: input.0, body: input.1, request: input.2)
        }
        #expect(tally.errors > 0, "\(tally)")
    }

    /// The properties every outcome must have.
    private static func check(status: Int, body: [UInt8], request: QuoteRequest) -> FuzzOutcome {
        let quote: Quote
        do {
            quote = try CoinbaseResponse.quote(from: HTTPResponse(status: status, body: body), for: request, provider: "coinbase", now: now)
        } catch let error as ProviderError {
            guard error.message.hasSuffix("(\(request.pair))") else { return .problem("the message does not end with the pair: \(error)") }
            let expected: ProviderError.Code = switch status {
            case 200: .invalidResponse
            case 404: .notFound
            case 429, 500...599: .unavailable
            default: .invalidRequest
            }
            guard error.code == expected else { return .problem("code \(error.code) for status \(status), expected \(expected): \(error)") }
            if status != 200 {
                // Coinbase's words are made printable and cut short before they reach a terminal.
                guard !error.message.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                    return .problem("a control character in the message: \(FuzzText.quoted(error.message))")
                }
                guard error.message.count <= 600 else { return .problem("a message of \(error.message.count) characters") }
            }
            return .error
        } catch {
            return .problem("threw \(type(of: error)), not ProviderError: \(error)")
        }
        guard status == 200 else { return .problem("a quote from status \(status)") }
        guard quote.asset == request.asset, quote.currency == request.currency, quote.provider == "coinbase", quote.timestamp == now else {
            return .problem("a quote for something else: \(quote)")
        }
        guard quote.amount > 0, !quote.amount.isNaN else { return .problem("a quote at \(quote.amount), not a positive price") }
        return .value
    }
}
