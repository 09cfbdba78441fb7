import CProviderABI
import Foundation
import Glibc
import ProviderABI
import Synchronization

/// Finds, checks and loads plugins.
///
/// For each file: resolve it, read its ELF header, `dlopen` it with
/// `RTLD_NOW | RTLD_LOCAL`, look up `pricehost_plugin_entry_v1`, call it
/// once with a services table, and check the descriptor's magic, major
/// version and struct sizes before using anything else in it. A library is
/// never `dlclose`d: unmapped Swift code crashes the process at its next
/// dynamic cast. Each broken plugin becomes one ``PluginFailure``; the
/// others keep working.
public struct PluginLoader: Sendable {
    /// Where bare names are searched.
    public var searchPath: PluginSearchPath
    /// Where plugins' log lines go.
    public var diagnostics: Diagnostics
    /// The HTTP client a provider's plugin gets (`nil`: before it has said its name).
    public var httpClients: @Sendable (String?) -> any HTTPClient

    /// Creates a loader.
    public init(searchPath: PluginSearchPath, diagnostics: Diagnostics,
                httpClients: @escaping @Sendable (String?) -> any HTTPClient) {
        self.searchPath = searchPath
        self.diagnostics = diagnostics
        self.httpClients = httpClients
    }

    /// Loads every plugin `config` names: `plugins`, then every `*.so` in each of `pluginDirectories`.
    public func loadAll(config: Config) -> PluginLoadReport {
        var report = PluginLoadReport()
        var seenFiles = Set<LibraryCache.FileKey>()
        var providerFiles: [String: String] = [:]
        let settings = config.providerSettings.mapValues(\.serialized)

        func load(_ path: String) {
            let resolved = realPath(path) ?? path
            var info = stat()
            guard fstatat(AT_FDCWD, resolved, &info, 0) == 0 else {
                report.failures.append(PluginFailure(path: resolved, reason: "cannot stat: \(String(cString: strerror(errno)))"))
                return
            }
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                report.failures.append(PluginFailure(path: resolved, reason: "not a regular file"))
                return
            }
            // By device and inode, as dlopen itself tells libraries apart: a second
            // path to the same file (a hard link) is the same library, loaded once.
            let key = LibraryCache.FileKey(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
            guard seenFiles.insert(key).inserted else { return }
            let result = LibraryCache.shared.load(key) {
                loadLibrary(at: resolved, settings: settings, configDirectory: config.directory)
            }
            switch result {
            case .success(let plugin):
                if let earlier = providerFiles[plugin.name] {
                    report.failures.append(PluginFailure(
                        path: resolved, provider: plugin.name,
                        reason: "provider '\(plugin.name)' is already provided by \(earlier); remove one of the two"))
                } else {
                    providerFiles[plugin.name] = resolved
                    report.plugins.append(plugin)
                }
            case .failure(let failure):
                report.failures.append(failure)
            }
        }

        for reference in config.plugins {
            if reference.isPath {
                let path = config.absolutePath(reference.reference)
                guard FileManager.default.fileExists(atPath: path) else {
                    report.failures.append(PluginFailure(path: path, reason: "file not found (from \(reference.keyPath))"))
                    continue
                }
                load(path)
            } else if let path = searchPath.find(reference.reference, exists: FileManager.default.fileExists(atPath:)) {
                load(path)
            } else {
                report.failures.append(PluginFailure(
                    path: reference.reference,
                    reason: "not found (from \(reference.keyPath)); looked in \(searchPath.directories.joined(separator: ", "))"))
            }
        }
        for directory in config.pluginDirectories {
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
                report.failures.append(PluginFailure(path: directory, reason: "plugin directory cannot be read (does it exist?)"))
                continue
            }
            for entry in entries.sorted() where entry.hasSuffix(".so") {
                load(directory + "/" + entry)
            }
        }
        return report
    }

    private func realPath(_ path: String) -> String? {
        guard let resolved = Glibc.realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private func loadLibrary(at path: String, settings: [String: String], configDirectory: String) -> Result<LoadedPlugin, PluginFailure> {
        func fail(_ reason: String) -> Result<LoadedPlugin, PluginFailure> {
            .failure(PluginFailure(path: path, reason: reason))
        }
        guard let prefix = ELFHeader.readPrefix(of: path) else {
            return fail("cannot read: \(String(cString: strerror(errno)))")
        }
        if let problem = ELFHeader.check(prefix) { return fail(problem) }

        _ = dlerror()
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            return fail("dlopen failed: \(dlerror().map { String(cString: $0) } ?? "unknown error")")
        }
        // The handle is kept (never dlclose'd) for the life of the process.
        guard let symbol = dlsym(handle, PRICEHOST_PLUGIN_ENTRY_SYMBOL) else {
            for major in 2...9 where dlsym(handle, "pricehost_plugin_entry_v\(major)") != nil {
                return fail("built for plugin ABI \(major) (exports pricehost_plugin_entry_v\(major)); this pricehost speaks ABI \(PRICEHOST_ABI_MAJOR); upgrade pricehost or rebuild the plugin")
            }
            return fail("no \(PRICEHOST_PLUGIN_ENTRY_SYMBOL) symbol: not a pricehost plugin, or the entry is not exported (in C, give it default visibility)")
        }
        let entry = unsafeBitCast(symbol, to: ph_plugin_entry_v1.self)
        let context = PluginHostContext(pluginPath: path, settingsText: settings, diagnostics: diagnostics, httpClients: httpClients)
        let table = context.makeTable(configDirectory: configDirectory)
        let (returned, registered, messages) = context.withEntryCall { entry(table) }
        guard let descriptor = returned else {
            // The plugin's own last word is the reason: one line, not its log and ours.
            let reason = messages.last { $0.level >= .warning }?.message ?? "no reason given"
            return fail("declined to load (its entry returned NULL): \(reason)")
        }
        let result = DescriptorReader.read(descriptor, registered: registered, path: path)
        switch result {
        case .success(let plugin):
            context.setProvider(plugin.name)
            for message in messages { diagnostics.log(message.level, "\(FilePath.fileName(of: path)): \(message.message)") }
            return .success(plugin)
        case .failure(let problem):
            return .failure(PluginFailure(path: path, provider: problem.provider, reason: problem.reason))
        }
    }
}

/// The outcome of loading a config's plugins.
public struct PluginLoadReport: Sendable {
    /// The plugins that loaded, in load order.
    public var plugins: [LoadedPlugin] = []
    /// The plugins that did not, each with why.
    public var failures: [PluginFailure] = []

    /// The loaded plugin that provides `provider`.
    public func plugin(named provider: String) -> LoadedPlugin? {
        plugins.first { $0.name == provider }
    }

    /// The failed plugin that said it provides `provider`, when its name could be read.
    public func failure(named provider: String) -> PluginFailure? {
        failures.first { $0.provider == provider }
    }
}

/// Each library file is loaded and its entry called at most once per process.
final class LibraryCache: Sendable {
    /// A file as the kernel (and dlopen) tells files apart.
    struct FileKey: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
    }

    static let shared = LibraryCache()
    private let results = Mutex<[FileKey: Result<LoadedPlugin, PluginFailure>]>([:])

    func load(_ key: FileKey, _ loader: () -> Result<LoadedPlugin, PluginFailure>) -> Result<LoadedPlugin, PluginFailure> {
        if let known = results.withLock({ $0[key] }) { return known }
        let result = loader()
        results.withLock { $0[key] = result }
        return result
    }
}
