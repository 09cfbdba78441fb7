import FoundationEssentials

/// Small path helpers that do not touch the file system.
package enum FilePath {
    /// `path` when absolute, else `directory/path`, with `.` and `..` components folded.
    package static func absolute(_ path: String, relativeTo directory: String) -> String {
        let joined = path.hasPrefix("/") ? path : directory + "/" + path
        return normalized(joined)
    }

    /// Folds `.`, `..` and repeated slashes of an absolute path; does not resolve links.
    package static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The directory part of an absolute path.
    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// The last component of a path.
    static func fileName(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The process's working directory.
    package static var currentDirectory: String {
        FileManager.default.currentDirectoryPath
    }
}
