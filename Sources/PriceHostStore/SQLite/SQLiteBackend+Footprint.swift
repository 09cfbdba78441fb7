extension SQLiteBackend {
    /// The file's rows and pages (``QuoteStore/Footprint``), read through a reader's connection.
    func footprint() throws(StoreReadError) -> StoreFootprint {
        try readers.read { connection throws(SQLiteError) -> StoreFootprint in
            var footprint = StoreFootprint(quotes: try connection.integer("SELECT count(*) FROM quotes"),
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
}
