/// Where a plugin named by its bare file name is looked for, in order:
/// `pluginDirectories`, `$PRICEHOST_PLUGIN_PATH` (colon-separated), the
/// directory of the `pricehost` executable, and `../lib/pricehost/plugins`
/// beside it. So a fresh `swift build` and an installed layout both work.
package struct PluginSearchPath: Sendable, Equatable {
    /// The directories, absolute, in search order.
    package var directories: [String]

    /// Creates a search path from its parts.
    package init(config: Config, environment: [String: String], executableDirectory: String?) {
        var directories = config.pluginDirectories
        for entry in (environment["PRICEHOST_PLUGIN_PATH"] ?? "").split(separator: ":") where !entry.isEmpty {
            directories.append(FilePath.absolute(String(entry), relativeTo: FilePath.currentDirectory))
        }
        if let executableDirectory {
            directories.append(executableDirectory)
            directories.append(FilePath.absolute("../lib/pricehost/plugins", relativeTo: executableDirectory))
        }
        var seen = Set<String>()
        self.directories = directories.filter { seen.insert($0).inserted }
    }

    /// The first `directory/name` that exists, or `nil`.
    package func find(_ name: String, exists: (String) -> Bool) -> String? {
        directories.lazy.map { $0 + "/" + name }.first(where: exists)
    }
}
