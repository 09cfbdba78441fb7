import Foundation
import ProviderABI
import Testing

/// Seeded, bounded fuzzing of a market plugin's answer reader: whatever the
/// status and body, the only outcomes allowed are the asked-for quote at a
/// positive price (from a 200), or a ``ProviderError`` on one printable line
/// that names the pair, with the code the status calls for. See docs/FUZZING.md.
public enum QuoteResponseFuzzing {
    /// The statuses answers are given: mostly 200, and every class of error.
    public static let statuses = [200, 200, 200, 200, 200, 400, 401, 403, 404, 418, 429, 451, 500, 502, 503, 204, 302, 0, 999]

    /// Runs `iterations` answers mutated from `corpus` (with `tokens` inserted) through `read`, for `requests`.
    /// - Returns: how the inputs fared; a failing input is recorded as an issue with the seed that reproduces it.
    @discardableResult
    public static func run(_ target: String, corpus: [String], tokens: [String], requests: [QuoteRequest], iterations: Int = 4_000,
                           read: (HTTPResponse, QuoteRequest) throws -> Quote,
                           sourceLocation: SourceLocation = #_sourceLocation) throws -> FuzzTally {
        let corpusBytes = corpus.map { Array($0.utf8) }
        let mutator = Mutator(corpus: corpusBytes, tokens: Mutator.commonTokens + tokens.map { Array($0.utf8) })
        return try FuzzRun().loop(target, iterations: iterations) { random, iteration in
            let body = iteration < corpusBytes.count ? corpusBytes[iteration] : mutator.mutate(using: &random)
            return (iteration < corpusBytes.count ? 200 : random.pick(statuses), body, random.pick(requests))
        } describe: { input in
            "status \(input.0), request \(input.2.pair), body \(FuzzText.describe(input.1))"
        } check: { input in
            check(status: input.0, body: input.1, request: input.2, read: read)
        }
    }

    /// The properties every outcome must have.
    static func check(status: Int, body: [UInt8], request: QuoteRequest, read: (HTTPResponse, QuoteRequest) throws -> Quote) -> FuzzOutcome {
        let quote: Quote
        do {
            quote = try read(HTTPResponse(status: status, body: body), request)
        } catch let error as ProviderError {
            guard error.message.contains(request.pair) else { return .problem("the message does not name the pair: \(error)") }
            let allowed: [ProviderError.Code] = switch status {
            case 200: [.invalidResponse, .notFound]
            case 429, 500...599: [.unavailable]
            default: [.notFound, .invalidRequest, .unavailable]
            }
            guard allowed.contains(error.code) else { return .problem("code \(error.code) for status \(status): \(error)") }
            // The API's words are made printable and cut short before they reach a terminal.
            guard !error.message.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
                return .problem("a control character in the message: \(FuzzText.quoted(error.message))")
            }
            guard error.message.count <= 800 else { return .problem("a message of \(error.message.count) characters") }
            return .error
        } catch {
            return .problem("threw \(type(of: error)), not ProviderError: \(error)")
        }
        guard status == 200 else { return .problem("a quote from status \(status)") }
        guard quote.asset == request.asset, quote.currency == request.currency else { return .problem("a quote for something else: \(quote)") }
        guard quote.amount > 0, !quote.amount.isNaN else { return .problem("a quote at \(quote.amount), not a positive price") }
        return .value
    }
}
