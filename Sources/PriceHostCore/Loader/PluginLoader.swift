import ConcurrencyHelpers
import CProviderABI
import FoundationEssentials
import Glibc
import ProviderABI

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
package struct PluginLoader: Sendable {
    /// How strict to be and what to compute.
    package struct Options: Sendable {
        /// Load plugins that others could replace, with a warning (`--allow-insecure-plugins`).
        package var allowInsecure = false
        /// Compute every plugin's SHA-256, not only the pinned ones' (for `providers --format json` and `check`).
        package var computeHashes = false
        /// Settings JSON handed to every plugin instead of the config's (the conformance check's bad settings).
        package var settingsOverride: String?
        /// How long a fetch through a provider may wait for the plugin's completion while
        /// the plugin has no HTTP request in flight with the host (time spent waiting on
        /// the host's HTTP, which has deadlines of its own, does not count). By provider
        /// name: the composition root gives each its ``ProviderPolicy/fetchDeadline``.
        package var fetchTimeout: @Sendable (_ provider: String) -> Duration = { _ in ProviderPolicy().fetchDeadline }

        /// The defaults: strict, hashes only where pinned, the default policy's fetch deadline.
        package init() {}
    }

    /// A plugin file to load, and its pin.
    package struct Candidate: Sendable, Equatable {
        /// The file, absolute.
        package var path: String
        /// The SHA-256 it must have, lower-case hex, and the config key that says so.
        package var pin: (sha256: String, keyPath: String)?

        package init(path: String, pin: (sha256: String, keyPath: String)? = nil) {
            self.path = path
            self.pin = pin
        }

        package static func == (lhs: Candidate, rhs: Candidate) -> Bool {
            lhs.path == rhs.path && lhs.pin?.sha256 == rhs.pin?.sha256 && lhs.pin?.keyPath == rhs.pin?.keyPath
        }
    }

    /// Where bare names are searched.
    package var searchPath: PluginSearchPath
    /// Where plugins' log lines go.
    package var diagnostics: Diagnostics
    /// The HTTP client a provider's plugin gets (`nil`: before it has said its name).
    var httpClients: @Sendable (String?) -> any HTTPClient
    /// How strict to be and what to compute.
    package var options: Options

    /// Creates a loader.
    package init(searchPath: PluginSearchPath, diagnostics: Diagnostics, options: Options = Options(),
                httpClients: @escaping @Sendable (String?) -> any HTTPClient) {
        self.searchPath = searchPath
        self.diagnostics = diagnostics
        self.options = options
        self.httpClients = httpClients
    }

    /// One pass of loading: each library file is loaded once, whatever path names it.
    /// Which plugin may provide which name is ``ProviderCatalog``'s rule, not the loader's.
    struct Session {
        package let loader: PluginLoader
        package let config: Config
        package let settings: [String: String]
        private var seenFiles = Set<LibraryCache.FileKey>()

        init(loader: PluginLoader, config: Config) {
            self.loader = loader
            self.config = config
            settings = config.providerSettings.mapValues(\.serialized)
        }

        /// Loads `candidate`; `nil` when this session already loaded that file under another path.
        package mutating func load(_ candidate: Candidate) -> Result<LoadedPlugin, PluginFailure>? {
            let path = PluginLoader.realPath(candidate.path) ?? candidate.path
            let file: CheckedLibraryFile
            switch CheckedLibraryFile.open(path) {
            case .success(let opened): file = opened
            case .failure(let refusal): return .failure(PluginFailure(path: path, reason: refusal.reason))
            }
            // Once dlopen has seen a descriptor it stays open for the life of the process.
            var keepOpen = false
            defer { if !keepOpen { file.close() } }
            // By device and inode, as dlopen itself tells libraries apart: a second
            // path to the same file (a hard link) is the same library, loaded once.
            let key = LibraryCache.FileKey(device: UInt64(file.info.st_dev), inode: UInt64(file.info.st_ino))
            guard seenFiles.insert(key).inserted else { return nil }
            let loader = loader, settings = settings, configDirectory = config.directory
            return LibraryCache.shared.load(key) {
                loader.loadLibrary(file, pin: candidate.pin, settings: settings, configDirectory: configDirectory, opened: &keepOpen)
            }
        }
    }

    /// `path` with every symbolic link resolved, or `nil` when it does not exist;
    /// loaded plugins are known by this path.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = Glibc.realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
