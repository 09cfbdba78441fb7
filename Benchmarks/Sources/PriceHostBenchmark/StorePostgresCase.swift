import Foundation
import PriceHostTesting

/// Case 12: the quote store on PostgreSQL (issue 36), on Debian's server in a throwaway cluster of the case's own
/// (``PostgresServer``: `initdb`, a free loopback port, fsync off, for both sides alike).
///
/// - **Ingest**: `pricehost __store-bench ingest --path postgres://…` (the store's own writer: one transaction a batch
///   of 10,000, the quotes through `unnest` arrays, the candles of every interval merged in SQL), then the same rows,
///   read back from the table ours wrote, sent by `psql`'s `\copy … FROM` into the same partitioned table emptied
///   first: the floor of a client sending rows to this server. Ours also keeps 6 candles a quote; `COPY` does not.
/// - **Reads**: a 90-day store filled through the writer (`__store-bench fill`), then the SQLite case's reads
///   (in-process, then through `pricehost serve` on that database): 2,160 1-hour candles, 10,000 1-minute ones,
///   and the price at random times.
enum StorePostgresCase {
    static let ingestTarget = 50_000.0
    static let copyRatioTarget = 0.3
    static let candlesTargetMilliseconds = 100.0
    static let name = "store-postgres"

    static func run(_ context: BenchmarkContext) throws -> [TargetOutcome] {
        guard PostgresServer.installed != nil else {
            Report.section("\(name): skipped")
            Report.note(PostgresServer.missingReason)
            return []
        }
        let quick = context.options.quick
        let loadAtStart = RunHeader.loadAverage()
        Report.progress("\(name): starting PostgreSQL")
        let server: PostgresServer
        do { server = try PostgresServer() } catch { throw BenchmarkError("\(name): \(error)") }
        defer { server.stopAndRemove() }
        let quotes = quick ? 100_000 : 300_000
        let rounds = try (1...(quick ? 1 : 3)).map { round in try ingestRound(context, server, quotes: quotes, round: round, of: quick ? 1 : 3) }
        let store = try fill(context, server)
        let reads = try StoreCase.readRounds(context, store, prices: quick ? 2_000 : 5_000, candleRuns: quick ? 51 : 201)
        let loadAtEnd = RunHeader.loadAverage()
        let version = (try? server.psql("SHOW server_version")) ?? "(version unknown)"

        var rows: [Row] = []
        var outcomes: [TargetOutcome] = []
        let ours = Samples(rounds.map(\.ours)), copy = Samples(rounds.map(\.copy))
        let ingestMet = ours.median >= ingestTarget
        rows.append(Row(what: "ingest, \(Report.grouped(quotes)) quotes over \(StoreCase.series) series, 10,000 a batch: quotes/s",
                        median: Report.grouped(Int(ours.median)), spread: rounds.map { Report.grouped(Int($0.ours)) }.joined(separator: ", "),
                        target: ">= \(Report.grouped(Int(ingestTarget)))/s", verdict: ingestMet ? "met" : "MISSED"))
        outcomes.append(TargetOutcome(name: "\(name): ingest, quotes/s", figure: Report.grouped(Int(ours.median)) + "/s",
                                      target: ">= \(Report.grouped(Int(ingestTarget)))/s", met: ingestMet))
        rows.append(Row(what: "  psql \\copy, the same rows into the same table: rows/s", median: Report.grouped(Int(copy.median)),
                        spread: rounds.map { Report.grouped(Int($0.copy)) }.joined(separator: ", ")))
        let ratio = ours.median / copy.median
        rows.append(Row(what: "  ours / COPY", median: Report.ratio(ratio), target: ">= \(Report.ratio(copyRatioTarget))",
                        verdict: ratio >= copyRatioTarget ? "met" : "MISSED"))
        outcomes.append(TargetOutcome(name: "\(name): ingest against psql's COPY", figure: Report.ratio(ratio),
                                      target: ">= \(Report.ratio(copyRatioTarget))", met: ratio >= copyRatioTarget))
        let (readRows, readOutcomes) = StoreCase.report(reads, candlesTarget: candlesTargetMilliseconds, prefix: "\(name): ")
        rows += readRows
        outcomes += readOutcomes
        rows.append(Row(what: "  filling the 90-day store through the writer (\(Report.grouped(store.recorded)) quotes, then the prune past 7 days)",
                        median: String(format: "%.1f s", store.seconds)))

        Report.section("\(name): the quote store on PostgreSQL (issue 36), through `pricehost __store-bench` and serve")
        Report.note("load average at the start / end of the case: \(loadAtStart) / \(loadAtEnd) (2 shared cores: read the figures with it)")
        Report.note("a throwaway PostgreSQL \(version) on 127.0.0.1 (fsync off), a new database a round; ours: QuoteStore.record in chunks")
        Report.note("of 10,000 with a flush each; COPY: psql's \\copy of the rows ours wrote (exported, the table emptied) into the same table.")
        for note in StoreCase.readNotes(reads) { Report.note(note) }
        Report.table(rows, spreadHeading: "runs")
        return outcomes
    }

    struct IngestRound {
        var ours: Double
        var copy: Double
    }

    private static func ingestRound(_ context: BenchmarkContext, _ server: PostgresServer, quotes: Int, round: Int, of rounds: Int) throws -> IngestRound {
        Report.progress("\(name): ingest round \(round) of \(rounds), \(quotes) quotes, ours then psql's COPY")
        let database = try server.makeDatabase()
        let line = try StoreBench.run(context, ["ingest", "--path", server.url(database: database), "--count", String(quotes),
                                                "--series", String(StoreCase.series)])
        guard try line.number("dropped") == 0, line.text("status") == "ok" else {
            throw BenchmarkError("\(name): ingest dropped quotes (status \(line.text("status") ?? "?")):\n  \(line.command)")
        }
        let ours = try line.number("quotesPerSecond")
        let rows = context.scratch.uniquePath("postgres-rows", suffix: "csv")
        defer { StoreBench.remove(rows) }
        let columns = "series, ts, lag, amount, source"
        try server.psql("\\copy (SELECT \(columns) FROM pricehost_quotes) TO '\(rows)' CSV", database: database)
        let exported = Int(try server.psql("SELECT count(*) FROM pricehost_quotes", database: database)) ?? 0
        guard exported == quotes else { throw BenchmarkError("\(name): ours stored \(exported) quotes of \(quotes)") }
        try server.psql("TRUNCATE pricehost_quotes", database: database)
        let started = Date()
        try server.psql("\\copy pricehost_quotes(\(columns)) FROM '\(rows)' CSV", database: database)
        let seconds = Date().timeIntervalSince(started)
        return IngestRound(ours: ours, copy: Double(quotes) / seconds)
    }

    /// The 90-day store the reads ask, in a database of its own.
    private static func fill(_ context: BenchmarkContext, _ server: PostgresServer) throws -> StoreCase.FilledStore {
        Report.progress("\(name): filling a 90-day store through the writer")
        let url = server.url(database: try server.makeDatabase())
        let now = StoreBench.iso(Date())
        let line = try StoreBench.run(context, ["fill", "--path", url, "--days", "90", "--now", now])
        guard try line.number("dropped") == 0, line.text("status") == "ok" else {
            throw BenchmarkError("\(name): filling the store dropped quotes (status \(line.text("status") ?? "?")):\n  \(line.command)")
        }
        return StoreCase.FilledStore(path: url, end: line.text("end") ?? now, recorded: Int(try line.number("quotesRecorded")),
                                     rawQuotes: 0, candles: 0, fileBytes: 0, quotesTableBytes: nil, seconds: try line.number("seconds"))
    }
}
