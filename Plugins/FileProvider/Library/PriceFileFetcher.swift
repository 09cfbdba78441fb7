import ConcurrencyHelpers
import FoundationEssentials
import Glibc
import ProviderABI

/// Answers from a price file, re-reading it whenever it changes on disk.
///
/// Each fetch `stat`s the file; the parsed table is reused while the file's
/// inode, size and modification time stay the same. A quote without its own
/// timestamp carries the file's modification time: that is when the price
/// was written down, not when it was read.
public final class PriceFileFetcher: PriceFetcher {
    /// The file, absolute.
    public let path: String
    private let provider: String
    // A pthread lock, not `Mutex`: concurrent fetches contend for it, and ThreadSanitizer
    // cannot see a contended `Mutex` hand over on Linux (see `Lock`).
    private let cache = Lock<Snapshot?>(nil)

    private struct Snapshot: Sendable {
        var identity: FileIdentity
        var table: PriceTable
    }

    private struct FileIdentity: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: timespec

        static func == (lhs: FileIdentity, rhs: FileIdentity) -> Bool {
            lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.size == rhs.size
                && lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
        }

        var modificationDate: Date {
            Date(timeIntervalSince1970: TimeInterval(modified.tv_sec) + TimeInterval(modified.tv_nsec) / 1_000_000_000)
        }
    }

    /// The largest price file read, so a mistaken path cannot eat the memory.
    public static let maximumFileSize = 16 * 1024 * 1024

    /// Creates a fetcher for `path` (absolute) answering as `provider`.
    public init(path: String, provider: String) {
        self.path = path
        self.provider = provider
    }

    /// The quote for `request` from the current contents of the file.
    /// - Throws: ``ProviderError`` `.unavailable` when the file cannot be read,
    ///   `.invalidResponse` when it is malformed (naming line or key),
    ///   `.notFound` when it has no price for the pair.
    public func fetchQuote(for request: QuoteRequest) async throws -> Quote {
        let (table, identity) = try currentTable()
        guard let entry = table.entry(for: request) else {
            let known = table.entries.keys.sorted()
            let shown = known.prefix(12).joined(separator: ", ") + (known.count > 12 ? ", …" : "")
            throw ProviderError(.notFound, "no price for \(request.pair) in \(path) (it has: \(shown))")
        }
        // A modification time outside years 0001-9999 (a clock gone wrong, `touch -d @1e17`) says nothing: use now.
        let fileTime = ISO8601Timestamp.isValid(identity.modificationDate) ? identity.modificationDate : Date()
        return Quote(asset: request.asset, currency: request.currency, amount: entry.amount,
                     provider: provider, timestamp: entry.timestamp ?? fileTime)
    }

    /// Reads and parses the file now, so a broken file is reported at load time.
    public func validate() throws {
        _ = try currentTable()
    }

    private func currentTable() throws -> (PriceTable, FileIdentity) {
        let identity = try currentIdentity()
        if let snapshot = cache.withLock({ $0 }), snapshot.identity == identity {
            return (snapshot.table, identity)
        }
        let table = try read(expected: identity)
        cache.withLock { $0 = Snapshot(identity: identity, table: table) }
        return (table, identity)
    }

    private func currentIdentity() throws -> FileIdentity {
        var info = Glibc.stat()
        guard fstatat(AT_FDCWD, path, &info, 0) == 0 else {
            throw ProviderError(.unavailable, "cannot read price file \(path): \(String(cString: strerror(errno)))")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw ProviderError(.unavailable, "price file \(path) is not a regular file")
        }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size), modified: info.st_mtim)
    }

    private func read(expected identity: FileIdentity) throws -> PriceTable {
        guard identity.size <= Self.maximumFileSize else {
            throw ProviderError(.invalidResponse, "price file \(path) is \(identity.size) bytes; the limit is \(Self.maximumFileSize)")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ProviderError(.unavailable, "cannot open price file \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        // Sized by the size just seen, not by the limit: zeroing 16 MiB would cost a fetch
        // about 10 ms of page faults. It grows (up to one byte past the limit, which tells
        // a file that grew since it was looked at) if the file grew.
        let ceiling = Self.maximumFileSize + 1
        var data = [UInt8](repeating: 0, count: min(Int(identity.size) + 4096, ceiling))
        var filled = 0
        while filled < ceiling {
            if filled == data.count {
                data.append(contentsOf: repeatElement(0, count: min(data.count, ceiling - data.count)))
            }
            let count = data.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                throw ProviderError(.unavailable, "cannot read price file \(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            filled += count
        }
        data.removeSubrange(filled...)
        guard data.count <= Self.maximumFileSize else {
            throw ProviderError(.invalidResponse, "price file \(path) is larger than the limit of \(Self.maximumFileSize) bytes")
        }
        do {
            return try PriceFileParser.parse(data, path: path)
        } catch {
            throw ProviderError(.invalidResponse, error.description)
        }
    }
}
