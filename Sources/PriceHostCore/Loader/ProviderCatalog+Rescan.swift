import Glibc

extension ProviderCatalog {
    /// What a rescan keeps from one to the next: each loaded file's identity, and
    /// the paths already warned about (said once, never retried).
    package struct RescanMemory: Sendable {
        fileprivate var known: [String: LibraryCache.FileKey] = [:]
        fileprivate var warnedAbout = Set<String>()
    }

    /// What rescans start from: the plugins loaded so far, and the failures already reported.
    package func startRescanning() -> RescanMemory {
        let report = report
        var memory = RescanMemory()
        for plugin in report.plugins where memory.known[plugin.path] == nil {
            if let identity = Self.identity(of: plugin.path) { memory.known[plugin.path] = identity }
        }
        memory.warnedAbout = Set(report.failures.map(\.path))
        return memory
    }

    /// Loads plugin files that appeared since the last rescan, and says once
    /// about files that were replaced or removed (the loaded copy keeps serving:
    /// a library is never unloaded). A newcomer whose provider name is taken is
    /// refused with a warning naming both files.
    package func rescan(_ memory: inout RescanMemory, diagnostics: Diagnostics) {
        // By resolved path, as loaded plugins are known: a path through a symbolic
        // link would otherwise look like a new plugin on every tick.
        let files = loader.candidates(config: config).files.map { candidate in
            var resolved = candidate
            resolved.path = PluginLoader.realPath(candidate.path) ?? candidate.path
            return resolved
        }
        let present = Set(files.map(\.path))
        for (path, key) in memory.known.sorted(by: { $0.key < $1.key }) where !memory.warnedAbout.contains(path) {
            if !present.contains(path) {
                diagnostics.warning("plugin \(path) was removed; the loaded copy keeps serving until pricehost restarts")
                memory.warnedAbout.insert(path)
            } else if Self.identity(of: path) != key {
                diagnostics.warning("plugin \(path) was replaced on disk; the loaded copy keeps serving until pricehost restarts")
                memory.warnedAbout.insert(path)
            }
        }
        let new = files.filter { memory.known[$0.path] == nil && !memory.warnedAbout.contains($0.path) }
        guard !new.isEmpty else { return }
        var session = PluginLoader.Session(loader: loader, config: config)
        var fresh: [LoadedPlugin] = []
        for candidate in new {
            guard let result = session.load(candidate) else { continue }
            let failuresBefore = report.failures.count
            if let plugin = admit(result) {
                diagnostics.log(.info, "plugin \(plugin.path): loaded; provider '\(plugin.name)' serves from this tick")
                fresh.append(plugin)
                memory.known[plugin.path] = Self.identity(of: plugin.path)
            } else {
                for failure in report.failures.dropFirst(failuresBefore) {
                    diagnostics.warning(failure.description)
                    memory.warnedAbout.insert(failure.path)
                }
            }
        }
        register(fresh)
    }

    /// The file at `path` as the kernel tells files apart; `nil` when it is gone.
    package static func identity(of path: String) -> LibraryCache.FileKey? {
        var info = stat()
        guard fstatat(AT_FDCWD, path, &info, 0) == 0 else { return nil }
        return LibraryCache.FileKey(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}
