import ConcurrencyHelpers

/// Each library file is loaded and its entry called at most once per process.
package final class LibraryCache: Sendable {
    /// A file as the kernel (and dlopen) tells files apart.
    package struct FileKey: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
    }

    package static let shared = LibraryCache()
    private let results = Lock<[FileKey: Result<LoadedPlugin, PluginFailure>]>([:])

    package func load(_ key: FileKey, _ loader: () -> Result<LoadedPlugin, PluginFailure>) -> Result<LoadedPlugin, PluginFailure> {
        if let known = results.withLock({ $0[key] }) { return known }
        let result = loader()
        results.withLock { $0[key] = result }
        return result
    }
}
