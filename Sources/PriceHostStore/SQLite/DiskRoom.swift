import ConcurrencyHelpers
import Glibc

/// Whether the file system under the store's file has room for the next batch, checked before each one; shared by
/// the writers a store opens in turn (one after each failure), so that a disk found full stays full across them.
///
/// SQLite says the disk is full only once it needs a block: the WAL is written again from its start after each
/// checkpoint, and the file's last pages have room, so on a full disk small batches would go on fitting for a while,
/// and the disk be said full minutes later at a quote a second. A batch refused here is dropped and counted as one
/// SQLite refuses, and the store says why at once, in SQLite's own words, so that both kinds read as one reason.
///
/// Once full, the store stays full until ``margin`` is free again (a quarter of a smaller file system): a writer
/// that failed gives its WAL back when it closes, and without a margin the next batch would fit in those few blocks,
/// the store be "written again", and full again a batch later, saying so twice a second.
///
/// Only where the file system counts its blocks: tmpfs without a size, ramfs and some FUSE file systems report none,
/// and SQLite alone says when they are full.
final class DiskRoom: Sendable {
    /// The room wanted, once the disk was full, before the store writes again.
    static let margin: UInt64 = 1 << 20

    private let path: String
    private let full = Lock(false)

    init(path: String) {
        self.path = path
    }

    /// Throws SQLite's `SQLITE_FULL` when the file system has no block left, or, after it was full, less than the margin.
    func require() throws(SQLiteError) {
        var system = statvfs()
        guard statvfs(path, &system) == 0, system.f_blocks > 0 else { return }
        // Root may use the blocks kept for it; anyone else, those free to all.
        let free = UInt64(geteuid() == 0 ? system.f_bfree : system.f_bavail)
        let blockSize = max(UInt64(system.f_frsize), 1)
        let wanted = full.withLock { $0 } ? max(min(Self.margin, UInt64(system.f_blocks) * blockSize / 4) / blockSize, 1) : 1
        guard free >= wanted else {
            filled()
            throw SQLiteError(code: SQLiteCode.full, message: Self.diskFull)
        }
        full.withLock { $0 = false }
    }

    /// SQLite found the disk full: the margin is wanted before the next batch.
    func filled() {
        full.withLock { $0 = true }
    }

    /// What SQLite says for `SQLITE_FULL`.
    static let diskFull = "database or disk is full"
}
