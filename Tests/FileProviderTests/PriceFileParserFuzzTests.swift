import FileProviderLibrary
import Foundation
import ProviderABI
import PriceHostFuzzing
import PriceHostTestTraits
import Testing

/// Seeded, bounded fuzzing of ``PriceFileParser``'s JSON and CSV readers: the
/// only outcomes allowed are a table of well-formed pairs, or a
/// ``PriceFileError`` naming the file. See docs/FUZZING.md.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct PriceFileParserFuzzTests {
    private static let jsonCorpus: [[UInt8]] = [
        #"{"data":{"base":"BTC","currency":"USD","amount":"15840.01"}}"#,
        #"[{"base":"BTC","currency":"USD","amount":"15840.01","timestamp":"2026-11-20T12:00:00Z"}, {"base":"eth","currency":"usd","amount":3120.50,"timestamp":null}, {"data":{"base":"SOL","currency":"EUR","amount":"142.25"}}]"#,
        #"{"BTC-USD": "15840.01", "eth-usd": {"amount": "3120.5", "timestamp": "2026-11-20T12:00:00.250Z"}, "SOL-EUR": 142.25}"#,
        #"{"BTC-USD": 0.1000000000000000055511151231257827, "A1-B2": "-0.5", "ABCDEFGHIJ-USD": "0"}"#,
        "\u{FEFF}[\r\n  {\"base\": \"USDC\", \"currency\": \"USD\", \"amount\": \"1\", \"timestamp\": \"9999-12-31T23:59:59Z\"}\r\n]\r\n",
        #"{"XAU-EUR": {"amount": "2300.125", "timestamp": "0001-01-01T00:00:00+01:00"}}"#,
    ].map { Array($0.utf8) }

    private static let csvCorpus: [[UInt8]] = [
        "base,currency,amount,timestamp\nBTC,USD,15840.01,2026-11-20T12:00:00Z\neth,usd,3120.5\n",
        "# prices for the tests\nbase,currency,amount\n\nBTC, USD, 15840.01\n  # an indented comment\nSOL,EUR,142.25,\n",
        "\u{FEFF}BTC,USD,1\r\nETH,USD,2.5,2026-11-20T12:00:00.250+01:00\r\n",
        "XAU,EUR,-0.000000000000000001\n\t\nA1,B2,99999999999999999999999999999999999999\n",
    ].map { Array($0.utf8) }

    private static let tokens = Mutator.commonTokens + [
        "BTC", "usd", "ABCDEFGHIJK", "BTC-USD", "BTC-USD-EUR", "-USD", "\"amount\"", "\"timestamp\"", "\"data\"", "\"base\"",
        "base,currency,amount", ",,", ",", "2026-11-20T12:00:00Z", "2026-02-30T25:61:61Z", "10000-01-01T00:00:00Z",
        "0000-12-31T23:59:59Z", "2026-11-20T12:00:00.9999999999Z", "+99:99", "9223372036854775807-01-01T00:00:00Z",
        "2026-11-20T12:00:60Z", "2026-11-20T99999999999999999999:00:00Z", "-0001-01-01T00:00:00Z", " ", "\u{00A0}", "\u{0085}",
    ].map { Array($0.utf8) }

    private static let mutator = Mutator(corpus: jsonCorpus + csvCorpus, tokens: tokens)

    /// Format by extension for the first two; by content for the rest.
    private static let paths = ["/srv/prices.json", "/srv/prices.csv", "/srv/prices", "/srv/PRICES.JSON", "/srv/prices.txt"]

    @Test func mutatedFilesParseOrFailCleanly() throws {
        let run = try FuzzRun()
        let corpus = Self.jsonCorpus.map { ($0, Self.paths[0]) } + Self.csvCorpus.map { ($0, Self.paths[1]) }
        let tally = run.loop("PriceFileParserFuzzTests/mutated", iterations: 15_000) { random, iteration in
            iteration < corpus.count ? corpus[iteration] : (Self.mutator.mutate(using: &random), random.pick(Self.paths))
        } describe: { input in
            "path \(input.1), contents \(FuzzText.describe(input.0))"
        } check: { input in
            Self.check(input.0, path: input.1)
        }
        if tally.total >= corpus.count {
            #expect(tally.values >= corpus.count, "the unmutated corpus must parse: \(tally)")
        }
        #expect(tally.errors > 0, "\(tally)")
    }

    @Test func randomFilesParseOrFailCleanly() throws {
        let run = try FuzzRun()
        let alphabet = Array(#"{}[]":,-.0123456789 #\#n\#r\#tABCUSDbtceur"#.utf8)
        let tally = run.loop("PriceFileParserFuzzTests/random", iterations: 6_000) { random, _ in
            (Mutator.randomBytes(using: &random, alphabet: alphabet), random.pick(Self.paths))
        } describe: { input in
            "path \(input.1), contents \(FuzzText.describe(input.0))"
        } check: { input in
            Self.check(input.0, path: input.1)
        }
        #expect(tally.errors > 0, "\(tally)")
    }

    @Test func generatedCSVLinesParseOrFailCleanly() throws {
        let run = try FuzzRun()
        let fields = ["BTC", "usd", "A1", "ABCDEFGHIJ", "ABCDEFGHIJK", "B", "", " ", "BTC%2F", "ÉTH", "15840.01", "-0", "1e3", "1,5",
                      "0.1000000000000000055511151231257827", "2026-11-20T12:00:00Z", "2026-11-20", "base", "currency", "amount",
                      "timestamp", "#", "\"BTC\"", "\u{FEFF}", "\r", "9999-12-31T23:59:59Z", "10000-01-01T00:00:00Z",
                      "9223372036854775807-01-01T00:00:00Z", "2026-11-20T12:00:60Z", "2026-11-20T12:00:00+99999999999999999999:00"]
        let codes = ["BTC", "usd", "A1", "ABCDEFGHIJ", "eth", "XAU", "EUR", "00"]
        let amounts = ["15840.01", "-0", "0.1000000000000000055511151231257827", "007.50", "99999999999999999999999999999999999999"]
        let timestamps = ["", "2026-11-20T12:00:00Z", "2026-11-20T12:00:00.250+01:00", "9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z"]
        let tally = run.loop("PriceFileParserFuzzTests/csvLines", iterations: 6_000) { random, _ in
            let lines = (0..<random.below(6)).map { _ in
                if random.chance(1, in: 3) {
                    return (0..<random.below(6)).map { _ in random.pick(fields) }.joined(separator: random.chance(1, in: 8) ? ";" : ",")
                }
                // Mostly well-formed, so that some files parse.
                var line = [random.pick(codes), random.pick(codes), random.pick(amounts)]
                if random.chance(1, in: 2) { line.append(random.pick(timestamps)) }
                if random.chance(1, in: 4) { line[random.below(line.count)] = random.pick(fields) }
                return line.joined(separator: random.pick([",", ", ", " ,"]))
            }
            return Array(lines.joined(separator: random.pick(["\n", "\r\n", "\n\n"])).utf8)
        } describe: {
            "path \(Self.paths[1]), contents \(FuzzText.describe($0))"
        } check: {
            Self.check($0, path: Self.paths[1])
        }
        #expect(tally.values > 0 && tally.errors > 0, "\(tally)")
    }

    /// The properties every outcome must have.
    private static func check(_ contents: [UInt8], path: String) -> FuzzOutcome {
        let table: PriceTable
        do {
            table = try PriceFileParser.parse(contents, path: path)
        } catch {
            // PriceFileError by the signature (typed throws).
            guard error.path == path else { return .problem("the error names \(error.path), not \(path): \(error)") }
            guard !error.reason.isEmpty else { return .problem("an error without a reason: \(error)") }
            if error.location.hasPrefix("line ") {
                let number = Int(error.location.dropFirst(5).prefix { $0.isNumber }) ?? 0
                let lines = contents.count { $0 == UInt8(ascii: "\n") } + 1
                guard (1...lines).contains(number) else { return .problem("line \(number) is not in the file's \(lines) line(s): \(error)") }
            }
            return .error
        }
        guard !table.entries.isEmpty else { return .problem("an empty table instead of \"no prices in the file\"") }
        if PriceFileParser.Format.detect(path: path, contents: contents) == .json {
            guard (try? JSONParser.parse(contents)) != nil else { return .problem("read as JSON, but it is not JSON") }
        }
        for (pair, entry) in table.entries {
            guard pair.wholeMatch(of: #/[A-Z0-9]{2,10}-[A-Z0-9]{2,10}/#) != nil else {
                return .problem("pair \(FuzzText.quoted(pair)) is not CODE-CODE in upper case")
            }
            guard !entry.amount.isNaN, DecimalAmount.parse(DecimalAmount.format(entry.amount)) == entry.amount else {
                return .problem("\(pair): the amount \(entry.amount) does not survive format and parse")
            }
            if let timestamp = entry.timestamp, !ISO8601Timestamp.isValid(timestamp) {
                return .problem("\(pair): timestamp \(timestamp.timeIntervalSince1970) is outside years 0001 to 9999")
            }
        }
        return .value
    }
}
