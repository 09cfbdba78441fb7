import ConcurrencyHelpers

/// Each library file is loaded and its entry called at most once per process.
final class LibraryCache: Sendable {
    /// A file as the kernel (and dlopen) tells files apart.
    struct FileKey: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
    }

    static let shared = LibraryCache()
    private let results = Lock<[FileKey: Result<LoadedPlugin, PluginFailure>]>([:])

    func load(_ key: FileKey, _ loader: () -> Result<LoadedPlugin, PluginFailure>) -> Result<LoadedPlugin, PluginFailure> {
        if let known = results.withLock({ $0[key] }) { return known }
        let result = loader()
        results.withLock { $0[key] = result }
        return result
    }
}
