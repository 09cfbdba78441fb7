import Foundation
import PriceHostCore
import PriceHostStore
import PriceHostTestTraits
import PriceHostTesting
import Testing

/// Retention on PostgreSQL: whole day partitions dropped past `rawRetentionDays`, by one instance of a fleet at a time.
/// Skips, saying why, without PostgreSQL's server (`apt-get install -y postgresql`).
@Suite(.offThePool) struct PostgresRetentionTests {
    static let day: Int64 = 86_400_000

    /// The prune's advisory lock (7036254219110369337: its high and low 32 bits) in this test's database, and no other
    /// session's: the suites share one server, and the migrations take an advisory lock too.
    static let pruneLock = "locktype = 'advisory' AND classid = 1638255598 AND objid = 3211446329 AND objsubid = 1 "
        + "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"

    /// The day partitions of `pricehost_quotes`, by name.
    static func quotePartitions(_ server: PostgresServer, _ database: String) throws -> [String] {
        try server.psql("SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
                        + "WHERE i.inhparent = 'pricehost_quotes'::regclass ORDER BY 1", database: database)
            .split(separator: "\n").map(String.init)
    }

    /// A store whose clock reads `now`, writing one quote of that day (its first batch prunes), then closed.
    static func writeOne(_ url: String, at now: Int64, lines: PostgresStoreTests.Lines) throws {
        let store = try PostgresStoreTests.open(url, lines: lines, now: now)
        defer { store.close() }
        store.record(QuoteStoreTests.quote("100", at: now - QuoteStoreTests.noon - 1_000))
        store.flush()
        #expect(store.currentStatus == .ok)
    }

    @Test func anInstanceThatFindsAnotherPruningLeavesItAndTheNextPruneDropsTheOldDays() throws {
        guard let server = try PostgresStoreTests.server() else { return }
        let database = try server.makeDatabase()
        let url = server.url(database: database)
        let lines = PostgresStoreTests.Lines()
        // Quotes of two days, recent when written.
        try Self.writeOne(url, at: QuoteStoreTests.noon, lines: lines)
        try Self.writeOne(url, at: QuoteStoreTests.noon + Self.day, lines: lines)
        let old = try Self.quotePartitions(server, database)
        #expect(old.count == 2, "\(old)")

        // Another instance is pruning (it holds the prune's lock, in a transaction that would last a minute, ended below
        // by the test): one 30 days later leaves the old days be.
        let holder = Thread { _ = try? server.psql("BEGIN; SELECT pg_advisory_xact_lock(7036254219110369337); SELECT pg_sleep(60); COMMIT", database: database) }
        holder.start()
        var held = false
        // Bounded: 100 looks, 20 ms apart.
        for _ in 0..<100 where !held {
            held = (try? server.psql("SELECT count(*) FROM pg_locks WHERE \(Self.pruneLock) AND granted", database: database)) == "1"
            if !held { usleep(20_000) }
        }
        try #require(held)
        let later = QuoteStoreTests.noon + 30 * Self.day
        try Self.writeOne(url, at: later, lines: lines)
        #expect(try Self.quotePartitions(server, database).filter { old.contains($0) } == old)

        // Once it is done, the next prune drops them: only the new day is left.
        try server.psql("SELECT pg_terminate_backend(pid) FROM pg_locks WHERE \(Self.pruneLock)", database: database)
        // Bounded: 250 looks, 20 ms apart.
        for _ in 0..<250 where (try? server.psql("SELECT count(*) FROM pg_locks WHERE \(Self.pruneLock)", database: database)) != "0" {
            usleep(20_000)
        }
        try Self.writeOne(url, at: later, lines: lines)
        let left = try Self.quotePartitions(server, database)
        #expect(left.count == 1 && !old.contains(left[0]), "\(left)")
        #expect(lines.all == [])
    }
}
