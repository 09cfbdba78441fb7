import Foundation
import Glibc

/// Case 11: the quote store on SQLite (issue 35), measured through the binary (`pricehost __store-bench`,
/// since the store is not public): ingest against Python's sqlite3 inserting the same rows; serve's stream
/// latency while it records 10,000 quotes/s against the same run with the store off (StoreCase+Stream.swift);
/// reads of a 90-day store, in-process and through serve's routes (StoreCase+Reads.swift); bytes per raw quote.
enum StoreCase {
    static let ingestTarget = 100_000.0
    static let pythonRatioTarget = 0.5
    static let bytesPerQuoteTarget = 80.0
    /// Rows per transaction on both sides: `__store-bench`'s chunk, the writer's batch at 100,000 quotes/s.
    static let batch = 10_000
    /// The series ingested quotes go to in turn.
    static let series = 4

    static func run(_ context: BenchmarkContext) throws -> [TargetOutcome] {
        let quick = context.options.quick
        let loadAtStart = RunHeader.loadAverage()
        let ingest = try ingestRounds(context, quotes: quick ? 300_000 : 1_000_000, rounds: quick ? 1 : 3)
        let paced = try pacedIngest(context, quotes: quick ? 300_000 : 1_000_000)
        let stream = try streamRounds(context, tickers: quick ? 30_000 : 100_000, rounds: quick ? 1 : 5)
        let stores = try fill(context)
        let reads = try readRounds(context, stores.quarter, prices: quick ? 2_000 : 5_000, candleRuns: quick ? 51 : 201)
        let loadAtEnd = RunHeader.loadAverage()

        var rows: [Row] = []
        var outcomes: [TargetOutcome] = []
        let ours = Samples(ingest.map(\.ours))
        rows.append(Row(what: "ingest, \(grouped(ingest[0].quotes)) quotes over \(series) series, \(grouped(batch)) a batch: quotes/s",
                        median: grouped(Int(ours.median)), spread: ingest.map { grouped(Int($0.ours)) }.joined(separator: ", "),
                        target: ">= \(grouped(Int(ingestTarget)))/s", verdict: ours.median >= ingestTarget ? "met" : "MISSED"))
        outcomes.append(TargetOutcome(name: "store: ingest, quotes/s (batches of \(grouped(batch)))", figure: grouped(Int(ours.median)) + "/s",
                                      target: ">= \(grouped(Int(ingestTarget)))/s", met: ours.median >= ingestTarget))
        let pythonRates = ingest.compactMap(\.python)
        if pythonRates.count == ingest.count {
            let python = Samples(pythonRates)
            let ratio = ours.median / python.median
            rows.append(Row(what: "  Python sqlite3, the same rows, executemany, \(grouped(batch)) a transaction: quotes/s",
                            median: grouped(Int(python.median)), spread: pythonRates.map { grouped(Int($0)) }.joined(separator: ", ")))
            rows.append(Row(what: "  ours / Python", median: Report.ratio(ratio), target: ">= \(Report.ratio(pythonRatioTarget))",
                            verdict: ratio >= pythonRatioTarget ? "met" : "MISSED"))
            let oursCPU = Samples(ingest.map(\.oursCPU)).median
            let pythonCPU = Samples(ingest.compactMap(\.pythonCPU)).median
            rows.append(Row(what: "  CPU per quote, ours / Python (a check on a loaded machine: Python's over ours is the ratio's twin)",
                            median: String(format: "%.2f / %.2f us = %.2fx", oursCPU, pythonCPU, pythonCPU / oursCPU)))
            outcomes.append(TargetOutcome(name: "store: ingest against Python's sqlite3", figure: Report.ratio(ratio),
                                          target: ">= \(Report.ratio(pythonRatioTarget))", met: ratio >= pythonRatioTarget))
        } else {
            rows.append(Row(what: "  Python sqlite3: not run (no python3 on PATH)"))
            outcomes.append(TargetOutcome(name: "store: ingest against Python's sqlite3", figure: "no python3",
                                          target: ">= \(Report.ratio(pythonRatioTarget))", met: nil))
        }
        let kept = paced.dropped == 0 && paced.deepest < paced.capacity
        rows.append(Row(what: "paced at \(grouped(paced.rate))/s for \(grouped(paced.quotes)) quotes, the writer's own 100 ms batches: dropped",
                        median: grouped(paced.dropped), target: "0", verdict: kept ? "met" : "MISSED"))
        rows.append(Row(what: "  deepest queue (of \(grouped(paced.capacity))) / behind at the end / quotes/s overall",
                        median: "\(grouped(paced.deepest)) / \(Report.milliseconds(paced.drainSeconds * 1000)) / \(grouped(Int(Double(paced.quotes) / paced.seconds)))"))
        outcomes.append(TargetOutcome(name: "store: \(grouped(paced.rate)) quotes/s sustained, dropped", figure: grouped(paced.dropped),
                                      target: "0", met: kept))
        let (streamRows, streamOutcome) = report(stream)
        rows += streamRows
        outcomes.append(streamOutcome)
        let (readRows, readOutcomes) = report(reads)
        rows += readRows
        outcomes += readOutcomes
        let perQuote = Double(stores.week.fileBytes) / Double(stores.week.rawQuotes)
        rows.append(Row(what: "bytes on disk per raw quote: 7 days at 1/s of one pair and their candles, \(grouped(stores.week.fileBytes)) bytes / \(grouped(stores.week.rawQuotes))",
                        median: String(format: "%.1f", perQuote), target: "<= \(Int(bytesPerQuoteTarget))",
                        verdict: perQuote <= bytesPerQuoteTarget ? "met" : "MISSED"))
        if let quotesTable = stores.week.quotesTableBytes {
            rows.append(Row(what: "  the quotes table alone (dbstat), bytes per quote", median: String(format: "%.1f", Double(quotesTable) / Double(stores.week.rawQuotes))))
        }
        rows.append(Row(what: "  the 90-day store: bytes on disk (\(grouped(stores.quarter.rawQuotes)) raw quotes, \(grouped(stores.quarter.candles)) candles)",
                        median: grouped(stores.quarter.fileBytes)))
        rows.append(Row(what: "  filling it through the writer (\(grouped(stores.quarter.recorded)) quotes, then the prune past 7 days)",
                        median: String(format: "%.1f s", stores.quarter.seconds)))
        outcomes.append(TargetOutcome(name: "store: bytes on disk per raw quote", figure: String(format: "%.1f", perQuote),
                                      target: "<= \(Int(bytesPerQuoteTarget))", met: perQuote <= bytesPerQuoteTarget))

        Report.section("store: the quote store on SQLite (issue 35), through `pricehost __store-bench` and serve")
        Report.note("load average at the start / end of the case: \(loadAtStart) / \(loadAtEnd) (2 shared cores: read the figures with it)")
        Report.note("ingest: quotes made before the clock starts, recorded through QuoteStore.record in chunks of \(grouped(batch)) with a flush")
        Report.note("each (the writer never waits); Python: Benchmarks/Scripts/store-ingest.py inserts the rows ours wrote into the same")
        Report.note("tables (WAL, synchronous=NORMAL, the same INSERT OR IGNORE), one transaction per \(grouped(batch)); ours also keeps 6 candles a quote.")
        for note in streamNotes(stream) + readNotes(reads) { Report.note(note) }
        Report.table(rows, spreadHeading: "runs")
        return outcomes
    }

    // MARK: ingest

    /// One round of ingest: ours, and Python's on the same rows (nil without python3), quotes/s.
    struct IngestRound {
        var quotes: Int
        var ours: Double
        var python: Double?
        /// CPU time (user + system) of each side's timed part, per quote, µs: what other work on the cores moves less.
        var oursCPU: Double
        var pythonCPU: Double?
    }

    private static func ingestRounds(_ context: BenchmarkContext, quotes: Int, rounds: Int) throws -> [IngestRound] {
        let python = Locations.onPath("python3")
        var results: [IngestRound] = []
        for round in 1...rounds {
            Report.progress("store: ingest round \(round) of \(rounds), \(quotes) quotes, ours\(python == nil ? "" : " then Python's")")
            let ours = context.scratch.uniquePath("ingest", suffix: "db")
            defer { StoreBench.remove(ours) }
            let line = try StoreBench.run(context, ["ingest", "--path", ours, "--count", String(quotes), "--series", String(series)])
            try checkKeptEverything(line)
            var result = IngestRound(quotes: quotes, ours: try line.number("quotesPerSecond"),
                                     oursCPU: try line.number("cpuSeconds") / Double(quotes) * 1e6)
            if let python {
                let copy = context.scratch.uniquePath("python", suffix: "db")
                defer { StoreBench.remove(copy) }
                let script = context.locations.storeIngestScript
                let theirs = try StoreBench.runJSON(Command(python, [script, "--rows-from", ours, "--path", copy, "--batch", String(batch)]), context)
                guard try theirs.number("written") == Double(quotes) else {
                    throw BenchmarkError("store: Python inserted \(try theirs.number("written")) of the \(quotes) rows:\n  \(theirs.command)")
                }
                result.python = try theirs.number("quotesPerSecond")
                result.pythonCPU = try theirs.number("cpuSeconds") / Double(quotes) * 1e6
            }
            results.append(result)
        }
        return results
    }

    /// The paced ingest's figures.
    struct PacedIngest {
        var rate: Int
        var quotes: Int
        var seconds: Double
        var dropped: Int
        var deepest: Int
        var capacity: Int
        var drainSeconds: Double
    }

    /// `quotes` at 100,000 a second, each millisecond's share at once, left to the writer's 100 ms batches.
    private static func pacedIngest(_ context: BenchmarkContext, quotes: Int) throws -> PacedIngest {
        let rate = Int(ingestTarget)
        Report.progress("store: ingest paced at \(rate)/s, \(quotes) quotes")
        let path = context.scratch.uniquePath("paced", suffix: "db")
        defer { StoreBench.remove(path) }
        let line = try StoreBench.run(context, ["ingest", "--path", path, "--count", String(quotes), "--series", String(series), "--rate", String(rate)])
        guard line.text("status") == "ok" else { throw BenchmarkError("store: the paced ingest's store was \(line.text("status") ?? "?"):\n  \(line.command)") }
        return PacedIngest(rate: rate, quotes: quotes, seconds: try line.number("seconds"), dropped: Int(try line.number("dropped")),
                           deepest: Int(try line.number("deepestQueue")), capacity: Int(try line.number("queueCapacity")),
                           drainSeconds: try line.number("drainSeconds"))
    }

    /// A run of ours that lost quotes measured something else than ingest: that is a failure, not a figure.
    private static func checkKeptEverything(_ line: JSONLine) throws {
        let dropped = try line.number("dropped")
        let kept = try line.number("rawQuotes")
        guard dropped == 0, line.text("status") == "ok", kept == (try line.number("quotes")) else {
            throw BenchmarkError("store: ingest dropped \(Int(dropped)) quotes or kept \(Int(kept)) (status \(line.text("status") ?? "?")):\n  \(line.command)")
        }
    }

    // MARK: the stores read

    /// What `__store-bench fill` reported of one store.
    struct FilledStore {
        var path: String
        var end: String
        var recorded: Int
        var rawQuotes: Int
        var candles: Int
        var fileBytes: Int
        var quotesTableBytes: Int?
        var seconds: Double
    }

    /// The 90-day store the reads ask, and the 7-day one bytes per quote are read from.
    struct FilledStores {
        var quarter: FilledStore
        var week: FilledStore
    }

    /// Fills both, ending at this minute.
    private static func fill(_ context: BenchmarkContext) throws -> FilledStores {
        let now = StoreBench.iso(Date())
        var made: [FilledStore] = []
        for days in [90, 7] {
            Report.progress("store: filling a \(days)-day store through the writer")
            let path = context.scratch.uniquePath("store-\(days)-days", suffix: "db")
            let line = try StoreBench.run(context, ["fill", "--path", path, "--days", String(days), "--now", now])
            guard try line.number("dropped") == 0, line.text("status") == "ok" else {
                throw BenchmarkError("store: filling \(path) dropped quotes (status \(line.text("status") ?? "?")):\n  \(line.command)")
            }
            made.append(FilledStore(path: path, end: line.text("end") ?? now, recorded: Int(try line.number("quotesRecorded")),
                                    rawQuotes: Int(try line.number("rawQuotes")), candles: Int(try line.number("candles")),
                                    fileBytes: Int(try line.number("fileBytes")),
                                    quotesTableBytes: (try? line.nested("tableBytes").number("quotes")).map { Int($0) },
                                    seconds: try line.number("seconds")))
        }
        return FilledStores(quarter: made[0], week: made[1])
    }

    static func grouped(_ value: Int) -> String { Report.grouped(value) }
}
