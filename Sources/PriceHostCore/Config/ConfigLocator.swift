import FoundationEssentials
import Glibc

/// Finds `plugins.json`: `--config PATH`, else `$PRICEHOST_CONFIG`, else
/// `./plugins.json`, else `~/.config/pricehost/plugins.json`, else
/// `/etc/pricehost/plugins.json`.
package struct ConfigLocator: Sendable {
    /// The value of `--config`, if given.
    package var explicitPath: String?
    /// The process environment.
    package var environment: [String: String]
    /// The working directory, absolute.
    package var currentDirectory: String
    /// The top-level keys that subsystems own (``ConfigSection``).
    package var sections: [any ConfigSection.Type]

    /// Creates a locator.
    package init(explicitPath: String?, environment: [String: String], currentDirectory: String, sections: [any ConfigSection.Type] = []) {
        self.explicitPath = explicitPath
        self.environment = environment
        self.currentDirectory = currentDirectory
        self.sections = sections
    }

    /// A config file larger than this is refused before it is read.
    static let maximumSize = 4 << 20

    /// The candidates in order, each with where it came from.
    package var candidates: [(path: String, source: String)] {
        if let explicitPath { return [(absolute(explicitPath), "--config")] }
        if let fromEnvironment = environment["PRICEHOST_CONFIG"], !fromEnvironment.isEmpty {
            return [(absolute(fromEnvironment), "$PRICEHOST_CONFIG")]
        }
        var list = [(absolute("plugins.json"), "the working directory")]
        if let home = environment["HOME"], !home.isEmpty {
            list.append((absolute(home + "/.config/pricehost/plugins.json"), "the user's config"))
        }
        list.append(("/etc/pricehost/plugins.json", "the system config"))
        return list
    }

    /// Reads and parses the first candidate that exists.
    ///
    /// An explicit `--config` or `$PRICEHOST_CONFIG` must exist; the search
    /// list is only walked when neither is given.
    /// - Throws: ``ConfigError``.
    package func load() throws(ConfigError) -> Config {
        let list = candidates
        let explicit = explicitPath != nil || list.count == 1
        for (path, source) in list {
            // Glibc, not FileManager: its attributes look up the owner's user and
            // group names through NSS, a measurable part of a cold start.
            var info = stat()
            guard stat(path, &info) == 0 else {
                if errno == ENOENT, !explicit { continue }
                if errno == ENOENT { throw ConfigError(path: path, reason: "config file (from \(source)) does not exist") }
                throw ConfigError(path: path, reason: "config file cannot be read: \(String(cString: strerror(errno)))")
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: throw ConfigError(path: path, reason: "is a directory, not a config file")
            default: throw ConfigError(path: path, reason: "is not a regular file")
            }
            guard info.st_size <= Self.maximumSize else {
                throw ConfigError(path: path, reason: "is larger than \(Self.maximumSize) bytes; that is no config file")
            }
            let file = open(path, O_RDONLY | O_CLOEXEC)
            guard file >= 0 else {
                throw ConfigError(path: path, reason: "config file cannot be read (check its permissions)")
            }
            defer { close(file) }
            // One byte more than stat said, to see a file that grew past the limit since.
            let bytes = FileDescriptorReader.read(file, upTo: min(Int(info.st_size), Self.maximumSize) + 1)
            guard bytes.count <= Self.maximumSize else {
                throw ConfigError(path: path, reason: "is larger than \(Self.maximumSize) bytes; that is no config file")
            }
            return try ConfigParser.parse(bytes, path: path, environment: environment, sections: sections)
        }
        let looked = list.map(\.path).joined(separator: ", ")
        throw ConfigError(path: nil, reason: "no config file found (looked for \(looked)); pass --config PATH or set PRICEHOST_CONFIG")
    }

    private func absolute(_ path: String) -> String {
        FilePath.absolute(path, relativeTo: currentDirectory)
    }
}
