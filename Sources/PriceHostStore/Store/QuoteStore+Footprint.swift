extension QuoteStore {
    /// What the store's file holds and what it takes on disk, read through a reader's connection.
    package struct Footprint: Sendable, Equatable {
        /// Rows of `quotes`: the raw quotes kept.
        package var quotes: Int64
        /// Rows of `candles`, every interval.
        package var candles: Int64
        /// `PRAGMA page_count` times `PRAGMA page_size`: the database as SQLite counts it, free pages included.
        package var bytes: Int64
        /// Pages on the free list (after a prune, until they are reused).
        package var freePages: Int64
        package var pageSize: Int64
        /// Bytes of each table (its index included: `quotes` and `candles` are WITHOUT ROWID, their own index), by
        /// name, from the `dbstat` table; empty when this SQLite was built without it.
        package var tableBytes: [String: Int64]
    }

    /// Counts the rows and pages of the file: for the benchmarks' bytes per quote and a store's size at a glance.
    package func footprint() throws(StoreReadError) -> Footprint {
        try readers.read { connection throws(SQLiteError) -> Footprint in
            var footprint = Footprint(quotes: try connection.integer("SELECT count(*) FROM quotes"),
                                      candles: try connection.integer("SELECT count(*) FROM candles"),
                                      bytes: 0, freePages: try connection.integer("PRAGMA freelist_count"),
                                      pageSize: try connection.integer("PRAGMA page_size"), tableBytes: [:])
            footprint.bytes = try connection.integer("PRAGMA page_count") * footprint.pageSize
            // dbstat is a compile-time option of SQLite: without it the sizes by table are not known, and that is all.
            if let perTable = try? connection.statement("SELECT name, sum(pgsize) FROM dbstat GROUP BY name") {
                defer { perTable.reset() }
                while (try? perTable.step()) == true { footprint.tableBytes[perTable.text(0)] = perTable.int64(1) }
            }
            return footprint
        }
    }

    /// Quotes waiting for the writer now: a producer that must not outrun the writer (and lose the oldest) waits on it.
    package var queueDepth: Int { queue.depth }
}
