/// What the store holds and what it takes on disk.
package struct StoreFootprint: Sendable, Equatable {
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
