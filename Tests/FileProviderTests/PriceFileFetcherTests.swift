import FileProviderLibrary
import Foundation
import PriceHostTesting
import ProviderABI
import Testing

struct PriceFileFetcherTests {
    /// 2026-11-20T12:00:00Z.
    private static let noon = Date(timeIntervalSince1970: 1_795_176_000)
    private static let btcUSD = QuoteRequest(asset: "BTC", currency: "USD")

    private func amount(_ text: String) throws -> Decimal {
        try #require(DecimalAmount.parse(text))
    }

    private func fetchedAmount(_ fetcher: PriceFileFetcher) async throws -> String {
        DecimalAmount.format(try await fetcher.fetchQuote(for: Self.btcUSD).amount)
    }

    // MARK: Answers

    @Test func returnsTheQuoteWithTheProvidersName() async throws {
        try await TemporaryDirectory.with { directory in
            let path = try directory.write(
                #"{"BTC-USD": {"amount": "15840.01", "timestamp": "2026-11-20T12:00:00Z"}, "ETH-USD": "3120.5"}"#,
                to: "prices.json")
            let fetcher = PriceFileFetcher(path: path, provider: "my-file")
            #expect(fetcher.path == path)
            let quote = try await fetcher.fetchQuote(for: Self.btcUSD)
            #expect(quote == Quote(asset: "BTC", currency: "USD", amount: try amount("15840.01"),
                                   provider: "my-file", timestamp: Self.noon))
        }
    }

    @Test func quoteWithoutATimestampCarriesTheFilesModificationTime() async throws {
        try await TemporaryDirectory.with { directory in
            let path = try directory.write("BTC,USD,15840.01\n", to: "prices.csv")
            try directory.setModificationDate(Self.noon, of: path)
            let fetcher = PriceFileFetcher(path: path, provider: "file")
            let quote = try await fetcher.fetchQuote(for: Self.btcUSD)
            #expect(quote == Quote(asset: "BTC", currency: "USD", amount: try amount("15840.01"),
                                   provider: "file", timestamp: Self.noon))
        }
    }

    @Test func concurrentFetchesAllAnswer() async throws {
        try await TemporaryDirectory.with { directory in
            let path = try directory.write("BTC,USD,1\nETH,USD,2\n", to: "prices.csv")
            let fetcher = PriceFileFetcher(path: path, provider: "file")
            let amounts = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<32 {
                    let request = QuoteRequest(asset: index.isMultiple(of: 2) ? "BTC" : "ETH", currency: "USD")
                    group.addTask { DecimalAmount.format(try await fetcher.fetchQuote(for: request).amount) }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(amounts.sorted() == Array(repeating: "1", count: 16) + Array(repeating: "2", count: 16))
        }
    }

    // MARK: Changes on disk

    @Test func noticesARewriteOfAnotherSizeAndThenOfTheSameSizeWithAnotherModificationTime() async throws {
        try await TemporaryDirectory.with { directory in
            let path = try directory.write("BTC,USD,1\n", to: "prices.csv")
            try directory.setModificationDate(Self.noon, of: path)
            let fetcher = PriceFileFetcher(path: path, provider: "file")
            #expect(try await fetchedAmount(fetcher) == "1")

            // Another size, same inode and same modification time: the size alone must tell.
            try directory.overwriteInPlace(path, with: "BTC,USD,22\n")
            try directory.setModificationDate(Self.noon, of: path)
            #expect(try await fetchedAmount(fetcher) == "22")

            // Same size and inode: only the modification time tells.
            let before = try directory.inodeAndSize(of: path)
            try directory.overwriteInPlace(path, with: "BTC,USD,33\n")
            try directory.setModificationDate(Self.noon.addingTimeInterval(60), of: path)
            let after = try directory.inodeAndSize(of: path)
            #expect(before.inode == after.inode && before.size == after.size)
            let quote = try await fetcher.fetchQuote(for: Self.btcUSD)
            #expect(DecimalAmount.format(quote.amount) == "33")
            #expect(quote.timestamp == Self.noon.addingTimeInterval(60))
        }
    }

    @Test func noticesAFileReplacedByAnotherOfTheSameSizeAndTime() async throws {
        try await TemporaryDirectory.with { directory in
            let path = try directory.write("BTC,USD,1\n", to: "prices.csv")
            try directory.setModificationDate(Self.noon, of: path)
            let fetcher = PriceFileFetcher(path: path, provider: "file")
            #expect(try await fetchedAmount(fetcher) == "1")

            let replacement = try directory.write("BTC,USD,2\n", to: "prices.csv.new")
            try directory.setModificationDate(Self.noon, of: replacement)
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.moveItem(atPath: replacement, toPath: path)
            #expect(try await fetchedAmount(fetcher) == "2")
        }
    }

    @Test func reusesTheParsedFileWhileInodeSizeAndModificationTimeAreUnchanged() async throws {
        try await TemporaryDirectory.with { directory in
            let path = try directory.write("BTC,USD,1\n", to: "prices.csv")
            try directory.setModificationDate(Self.noon, of: path)
            let fetcher = PriceFileFetcher(path: path, provider: "file")
            #expect(try await fetchedAmount(fetcher) == "1")

            try directory.overwriteInPlace(path, with: "BTC,USD,9\n")
            try directory.setModificationDate(Self.noon, of: path)
            #expect(try await fetchedAmount(fetcher) == "1")
        }
    }

    @Test func recoversOnceABrokenFileIsFixed() async throws {
        try await TemporaryDirectory.with { directory in
            let path = try directory.write("BTC,USD\n", to: "prices.csv")
            let fetcher = PriceFileFetcher(path: path, provider: "file")
            await #expect(throws: ProviderError(.invalidResponse,
                                                "\(path): line 1: expected 3 or 4 fields (base,currency,amount[,timestamp]), found 2")) {
                try await fetcher.fetchQuote(for: Self.btcUSD)
            }
            try directory.overwriteInPlace(path, with: "BTC,USD,5\n")
            #expect(try await fetchedAmount(fetcher) == "5")
        }
    }

    // MARK: Errors

    @Test func missingPairListsThePairsTheFileHas() async throws {
        try await TemporaryDirectory.with { directory in
            let path = try directory.write("ETH,USD,2\nBTC,USD,1\n", to: "prices.csv")
            let fetcher = PriceFileFetcher(path: path, provider: "file")
            await #expect(throws: ProviderError(.notFound, "no price for BTC-EUR in \(path) (it has: BTC-USD, ETH-USD)")) {
                try await fetcher.fetchQuote(for: QuoteRequest(asset: "BTC", currency: "EUR"))
            }
        }
    }

    @Test func missingPairListsAtMostTwelvePairs() async throws {
        try await TemporaryDirectory.with { directory in
            let codes = (0..<13).map { "C" + String(100 + $0).dropFirst() }  // C00 … C12
            let path = try directory.write(codes.map { "\($0),USD,1\n" }.joined(), to: "prices.csv")
            let fetcher = PriceFileFetcher(path: path, provider: "file")
            let shown = codes.prefix(12).map { "\($0)-USD" }.joined(separator: ", ")
            await #expect(throws: ProviderError(.notFound, "no price for BTC-USD in \(path) (it has: \(shown), …)")) {
                try await fetcher.fetchQuote(for: Self.btcUSD)
            }
        }
    }

    @Test func missingFileIsUnavailableAndNamesThePath() async throws {
        try await TemporaryDirectory.with { directory in
            let path = directory.file("missing.json")
            let fetcher = PriceFileFetcher(path: path, provider: "file")
            await #expect(throws: ProviderError(.unavailable, "cannot read price file \(path): No such file or directory")) {
                try await fetcher.fetchQuote(for: Self.btcUSD)
            }
        }
    }

    @Test func fileDeletedAfterAReadIsUnavailable() async throws {
        try await TemporaryDirectory.with { directory in
            let path = try directory.write("BTC,USD,1\n", to: "prices.csv")
            let fetcher = PriceFileFetcher(path: path, provider: "file")
            #expect(try await fetchedAmount(fetcher) == "1")
            try FileManager.default.removeItem(atPath: path)
            await #expect(throws: ProviderError(.unavailable, "cannot read price file \(path): No such file or directory")) {
                try await fetcher.fetchQuote(for: Self.btcUSD)
            }
        }
    }

    @Test func directoryIsNotARegularFile() async throws {
        try await TemporaryDirectory.with { directory in
            let fetcher = PriceFileFetcher(path: directory.path, provider: "file")
            await #expect(throws: ProviderError(.unavailable, "price file \(directory.path) is not a regular file")) {
                try await fetcher.fetchQuote(for: Self.btcUSD)
            }
        }
    }

    @Test func malformedFileIsAnInvalidResponseWithTheParsersDescription() async throws {
        try await TemporaryDirectory.with { directory in
            let text = #"{"BTC-USD": }"#
            let path = try directory.write(text, to: "prices.json")
            let parserError = try #require(throws: PriceFileError.self) {
                try PriceFileParser.parse(Array(text.utf8), path: path)
            }
            let fetcher = PriceFileFetcher(path: path, provider: "file")
            let error = try await #require(throws: ProviderError.self) {
                try await fetcher.fetchQuote(for: Self.btcUSD)
            }
            #expect(error == ProviderError(.invalidResponse, "\(path): line 1, column 13: unexpected '}', expected a value"))
            #expect(error.message == parserError.description)
        }
    }

    @Test func fileLargerThanTheLimitIsRefused() async throws {
        #expect(PriceFileFetcher.maximumFileSize == 16 * 1024 * 1024)
        try await TemporaryDirectory.with { directory in
            let path = directory.file("huge.csv")
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            // Sparse: the size is there, the blocks are not.
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.truncate(atOffset: UInt64(PriceFileFetcher.maximumFileSize + 1))
            try handle.close()
            let fetcher = PriceFileFetcher(path: path, provider: "file")
            await #expect(throws: ProviderError(.invalidResponse, "price file \(path) is 16777217 bytes; the limit is 16777216")) {
                try await fetcher.fetchQuote(for: Self.btcUSD)
            }
        }
    }

    // MARK: validate

    @Test func validateAcceptsAGoodFile() async throws {
        try await TemporaryDirectory.with { directory in
            let path = try directory.write("BTC,USD,1\n", to: "prices.csv")
            try PriceFileFetcher(path: path, provider: "file").validate()
        }
    }

    @Test func validateReportsABrokenFileAsFetchWould() async throws {
        try await TemporaryDirectory.with { directory in
            let path = try directory.write("", to: "prices.csv")
            #expect(throws: ProviderError(.invalidResponse, "\(path): no prices in the file")) {
                try PriceFileFetcher(path: path, provider: "file").validate()
            }
        }
    }
}
