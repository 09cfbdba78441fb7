import Glibc
import PriceHostCore

/// Writes a scaffold's files into a directory that is new or empty, and nowhere else.
enum ScaffoldWriter {
    /// Checks `directory` is absent or an empty directory, creates it (and its
    /// parents), and writes `files` into it, each `0644` (less the umask).
    /// - Throws: ``ScaffoldError`` with ``ScaffoldError/Code/directoryInUse`` when
    ///   `directory` exists and is not an empty directory; `fileSystem` when
    ///   creating or writing fails.
    static func write(_ files: [PluginScaffold.File], into directory: String) throws(ScaffoldError) {
        var info = stat()
        if stat(directory, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw ScaffoldError(.directoryInUse, "new-plugin: \(directory) exists and is not a directory; choose another --dir")
            }
            guard isEmptyDirectory(directory) else {
                throw ScaffoldError(.directoryInUse, "new-plugin: \(directory) is not empty; choose a new or empty --dir")
            }
        }
        try makeDirectories(directory)
        for file in files {
            let path = directory + "/" + file.path
            try makeDirectories(FilePath.directory(of: path))
            try writeNew(path, Array(file.contents.utf8))
        }
    }

    private static func isEmptyDirectory(_ path: String) -> Bool {
        guard let stream = opendir(path) else { return false }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { return false }
        }
        return true
    }

    /// `mkdir -p`.
    private static func makeDirectories(_ path: String) throws(ScaffoldError) {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return }
        let parent = FilePath.directory(of: path)
        if parent != path { try makeDirectories(parent) }
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
            throw ScaffoldError(.fileSystem, "new-plugin: cannot create \(path): \(String(cString: strerror(errno)))")
        }
    }

    private static func writeNew(_ path: String, _ bytes: [UInt8]) throws(ScaffoldError) {
        let file = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard file >= 0 else { throw ScaffoldError(.fileSystem, "new-plugin: cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(file) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(file, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw ScaffoldError(.fileSystem, "new-plugin: cannot write \(path): \(String(cString: strerror(errno)))") }
            offset += written
        }
    }
}
