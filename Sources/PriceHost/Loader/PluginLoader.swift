import ConcurrencyHelpers
import Injection
import CProviderABI
import Foundation
import Glibc
import ProviderABI
import Synchronization

/// Finds, checks and loads plugins.
///
/// For each file: resolve it and open it once; refuse it when someone other
/// than root or the current user could replace it (unless allowed); read its
/// ELF header; check its `sha256` pin; `dlopen` that same open file (through
/// `/proc/self/fd`, so what was checked is what is loaded) with
/// `RTLD_NOW | RTLD_LOCAL`; look up `pricehost_plugin_entry_v1`, call it once
/// with a services table, and check the descriptor's magic, major version and
/// struct sizes before using anything else in it. A library is never
/// `dlclose`d: unmapped Swift code crashes the process at its next dynamic
/// cast. Each broken plugin becomes one ``PluginFailure``; the others keep
/// working.
struct PluginLoader: Sendable {
    /// How strict to be and what to compute.
    struct Options: Sendable {
        /// Load plugins that others could replace, with a warning (`--allow-insecure-plugins`).
        var allowInsecure = false
        /// Compute every plugin's SHA-256, not only the pinned ones' (for `providers --format json` and `check`).
        var computeHashes = false
        /// Settings JSON handed to every plugin instead of the config's (the conformance check's bad settings).
        var settingsOverride: String?
        /// How long a fetch may wait for the plugin's completion while the plugin has
        /// no HTTP request in flight with the host (time spent waiting on the host's
        /// HTTP, which has deadlines of its own, does not count).
        var fetchTimeout: Duration = .seconds(60)

        /// The defaults: strict, hashes only where pinned, a 60 s fetch timeout.
        init() {}
    }

    /// A plugin file to load, and its pin.
    struct Candidate: Sendable, Equatable {
        /// The file, absolute.
        var path: String
        /// The SHA-256 it must have, lower-case hex, and the config key that says so.
        var pin: (sha256: String, keyPath: String)?

        static func == (lhs: Candidate, rhs: Candidate) -> Bool {
            lhs.path == rhs.path && lhs.pin?.sha256 == rhs.pin?.sha256 && lhs.pin?.keyPath == rhs.pin?.keyPath
        }
    }

    /// Where bare names are searched.
    var searchPath: PluginSearchPath
    /// Where plugins' log lines go.
    var diagnostics: Diagnostics
    /// The HTTP client a provider's plugin gets (`nil`: before it has said its name).
    var httpClients: @Sendable (String?) -> any HTTPClient
    /// How strict to be and what to compute.
    var options: Options

    /// Creates a loader.
    init(searchPath: PluginSearchPath, diagnostics: Diagnostics, options: Options = Options(),
                httpClients: @escaping @Sendable (String?) -> any HTTPClient) {
        self.searchPath = searchPath
        self.diagnostics = diagnostics
        self.options = options
        self.httpClients = httpClients
    }

    /// The files `config` names, found: `plugins`, then every `*.so` in each of
    /// `pluginDirectories`; and a failure for each that cannot be found.
    func candidates(config: Config) -> (files: [Candidate], failures: [PluginFailure]) {
        var files: [Candidate] = []
        var failures: [PluginFailure] = []
        forEachCandidate(config: config) { found in
            switch found {
            case .success(let candidate): files.append(candidate)
            case .failure(let failure): failures.append(failure)
            }
            return true
        }
        return (files, failures)
    }

    /// Finds the files `config` names one at a time, in load order, as long as
    /// `body` returns `true`: a name is looked up, and a directory listed, only
    /// when the walk gets to it.
    private func forEachCandidate(config: Config, _ body: (Result<Candidate, PluginFailure>) -> Bool) {
        for reference in config.plugins {
            let pin = reference.sha256.map { ($0, "\(reference.keyPath).sha256") }
            let found: Result<Candidate, PluginFailure>
            if reference.isPath {
                let path = config.absolutePath(reference.reference)
                found = access(path, F_OK) == 0
                    ? .success(Candidate(path: path, pin: pin))
                    : .failure(PluginFailure(path: path, reason: "file not found (from \(reference.keyPath))"))
            } else if let path = searchPath.find(reference.reference, exists: { access($0, F_OK) == 0 }) {
                found = .success(Candidate(path: path, pin: pin))
            } else {
                found = .failure(PluginFailure(
                    path: reference.reference,
                    reason: "not found (from \(reference.keyPath)); looked in \(searchPath.directories.joined(separator: ", "))"))
            }
            guard body(found) else { return }
        }
        for directory in config.pluginDirectories {
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
                guard body(.failure(PluginFailure(path: directory, reason: "plugin directory cannot be read (does it exist?)"))) else { return }
                continue
            }
            for entry in entries.sorted() where entry.hasSuffix(".so") {
                guard body(.success(Candidate(path: directory + "/" + entry, pin: nil))) else { return }
            }
        }
    }

    /// Loads every plugin `config` names.
    func loadAll(config: Config) -> PluginLoadReport {
        load(config: config, until: nil)
    }

    /// Loads the plugins `config` names, in order, until every provider in
    /// `needed` is loaded; all of them when `needed` is `nil` or cannot be
    /// satisfied. A fetch of one provider thus loads (and finds) no more
    /// plugins than it must, but then neither reports the plugins it did not
    /// reach, broken or duplicate; `providers` and `check` see them all.
    func load(config: Config, until needed: Set<String>?) -> PluginLoadReport {
        var run = LoadRun(loader: self, config: config)
        forEachCandidate(config: config) { found in
            switch found {
            case .success(let candidate): run.load(candidate)
            case .failure(let failure): run.report.failures.append(failure)
            }
            guard let needed else { return true }
            return !needed.allSatisfy { run.report.plugin(named: $0) != nil }
        }
        return run.report
    }

    /// Loads `files` with `config`'s settings.
    func load(_ files: [Candidate], config: Config) -> PluginLoadReport {
        var run = LoadRun(loader: self, config: config)
        for candidate in files { run.load(candidate) }
        return run.report
    }

    /// One pass of loading: the report so far, and what it has seen.
    private struct LoadRun {
        let loader: PluginLoader
        let config: Config
        let settings: [String: String]
        var report = PluginLoadReport()
        var seenFiles = Set<LibraryCache.FileKey>()
        var providerFiles: [String: String] = [:]

        init(loader: PluginLoader, config: Config) {
            self.loader = loader
            self.config = config
            settings = config.providerSettings.mapValues(\.serialized)
        }

        mutating func load(_ candidate: Candidate) {
            let path = PluginLoader.realPath(candidate.path) ?? candidate.path
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                report.failures.append(PluginFailure(path: path, reason: "cannot open: \(String(cString: strerror(errno)))"))
                return
            }
            // Once dlopen has seen a descriptor it stays open for the life of the
            // process: dlopen knows the library as /proc/self/fd/N, and glibc would
            // take a later library under a reused N for this one.
            var keepOpen = false
            defer { if !keepOpen { close(descriptor) } }
            var info = stat()
            guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                report.failures.append(PluginFailure(path: path, reason: "not a regular file"))
                return
            }
            // By device and inode, as dlopen itself tells libraries apart: a second
            // path to the same file (a hard link) is the same library, loaded once.
            let key = LibraryCache.FileKey(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
            guard seenFiles.insert(key).inserted else { return }
            let result = LibraryCache.shared.load(key) {
                loader.loadLibrary(at: path, file: descriptor, info: info, pin: candidate.pin, settings: settings,
                                   configDirectory: config.directory, opened: &keepOpen)
            }
            switch result {
            case .success(let plugin):
                if let earlier = providerFiles[plugin.name] {
                    report.failures.append(PluginFailure(
                        path: path, provider: plugin.name,
                        reason: "provider '\(plugin.name)' is already provided by \(earlier); remove one of the two"))
                } else {
                    providerFiles[plugin.name] = path
                    report.plugins.append(plugin)
                }
            case .failure(let failure):
                report.failures.append(failure)
            }
        }
    }

    /// `path` with every symbolic link resolved, or `nil` when it does not exist;
    /// loaded plugins are known by this path.
    static func realPath(_ path: String) -> String? {
        guard let resolved = Glibc.realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    fileprivate func loadLibrary(at path: String, file: Int32, info: stat, pin: (sha256: String, keyPath: String)?,
                             settings: [String: String], configDirectory: String,
                             opened: inout Bool) -> Result<LoadedPlugin, PluginFailure> {
        func fail(_ reason: String) -> Result<LoadedPlugin, PluginFailure> {
            .failure(PluginFailure(path: path, reason: reason))
        }
        if let refusal = PluginFileSecurity.refusal(file: path, fileInfo: info, allowInsecure: options.allowInsecure,
                                                    diagnostics: diagnostics) {
            return fail(refusal)
        }
        let prefix = FileDescriptorReader.read(file, upTo: 64)
        if let problem = ELFHeader.check(prefix) { return fail(problem) }

        var sha256: String?
        if pin != nil || options.computeHashes {
            guard let digest = FileDescriptorReader.sha256(file) else {
                return fail("cannot read: \(String(cString: strerror(errno)))")
            }
            sha256 = digest
            if let pin, pin.sha256 != digest {
                return fail("sha256 is \(digest), but \(pin.keyPath) pins \(pin.sha256); if the plugin was upgraded on purpose, update the pin")
            }
        }

        _ = dlerror()
        // The open file, not the path: what was checked and hashed is what is loaded.
        guard let handle = dlopen("/proc/self/fd/\(file)", RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown error"
            return fail("dlopen failed: \(reason.replacingOccurrences(of: "/proc/self/fd/\(file)", with: path))")
        }
        opened = true
        // The handle is kept (never dlclose'd) for the life of the process.
        guard let symbol = dlsym(handle, PRICEHOST_PLUGIN_ENTRY_SYMBOL) else {
            for major in 2...9 where dlsym(handle, "pricehost_plugin_entry_v\(major)") != nil {
                return fail("built for plugin ABI \(major) (exports pricehost_plugin_entry_v\(major)); this pricehost speaks ABI \(PRICEHOST_ABI_MAJOR); upgrade pricehost or rebuild the plugin")
            }
            return fail("no \(PRICEHOST_PLUGIN_ENTRY_SYMBOL) symbol: not a pricehost plugin, or the entry is not exported (in C, give it default visibility)")
        }
        let entry = unsafeBitCast(symbol, to: ph_plugin_entry_v1.self)
        let context = PluginHostContext(pluginPath: path, settingsText: settings, settingsOverride: options.settingsOverride,
                                        diagnostics: diagnostics, httpClients: httpClients)
        let fetchTimeout = options.fetchTimeout
        let table = context.makeTable(configDirectory: configDirectory)
        let (returned, registered, messages) = context.withEntryCall { entry(table) }
        guard let descriptor = returned else {
            // The plugin's own last word is the reason: one line, not its log and ours.
            let reason = messages.last { $0.level >= .warning }?.message ?? "no reason given"
            return fail("declined to load (its entry returned NULL): \(reason)")
        }
        let result = DescriptorReader.read(descriptor, registered: registered, path: path, fetchTimeout: fetchTimeout,
                                           isWaitingOnHost: { [context] in context.hasHTTPInFlight })
        switch result {
        case .success(var plugin):
            plugin.sha256 = sha256
            context.setProvider(plugin.name)
            for message in messages { diagnostics.log(message.level, "\(FilePath.fileName(of: path)): \(message.message)") }
            return .success(plugin)
        case .failure(let problem):
            return .failure(PluginFailure(path: path, provider: problem.provider, reason: problem.reason))
        }
    }
}

/// The outcome of loading a config's plugins.
struct PluginLoadReport: Sendable {
    /// The plugins that loaded, in load order.
    var plugins: [LoadedPlugin] = []
    /// The plugins that did not, each with why.
    var failures: [PluginFailure] = []

    /// The loaded plugin that provides `provider`.
    func plugin(named provider: String) -> LoadedPlugin? {
        plugins.first { $0.name == provider }
    }

    /// The failed plugin that said it provides `provider`, when its name could be read.
    func failure(named provider: String) -> PluginFailure? {
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
    private let results = Lock<[FileKey: Result<LoadedPlugin, PluginFailure>]>([:])

    func load(_ key: FileKey, _ loader: () -> Result<LoadedPlugin, PluginFailure>) -> Result<LoadedPlugin, PluginFailure> {
        if let known = results.withLock({ $0[key] }) { return known }
        let result = loader()
        results.withLock { $0[key] = result }
        return result
    }
}
