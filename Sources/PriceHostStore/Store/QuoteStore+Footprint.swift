extension QuoteStore {
    /// What the store holds and what it takes on disk.
    package typealias Footprint = StoreFootprint

    /// Counts the rows and pages of the file, for the benchmarks' bytes per quote; nil when the store is not in
    /// SQLite (pages and `dbstat` are SQLite's words: a backend of another kind would count its own way).
    package func footprint() throws(StoreReadError) -> Footprint? {
        try (backend as? SQLiteBackend)?.footprint()
    }

    /// Quotes waiting for the writer now: a producer that must not outrun the writer (and lose the oldest) waits on it.
    package var queueDepth: Int { queue.depth }
}
