import Glibc

/// The checks made on a plugin file and its directory before `dlopen`, in
/// the spirit of sudo's plugin loader: nobody but root and the user running
/// pricehost may be able to replace the code it is about to run.
enum PluginFileSecurity {
    static let escapeHatch = "--allow-insecure-plugins"

    /// Why `file` (with `fileInfo`) in `directory` (with `directoryInfo`) must not be loaded, or `nil`.
    package static func problem(file: String, fileInfo: stat, directory: String, directoryInfo: stat, user: uid_t = geteuid()) -> String? {
        if let problem = problem(kind: "file", path: file, info: fileInfo, user: user) { return problem }
        return problem(kind: "directory", path: directory, info: directoryInfo, user: user)
    }

    /// Why `file` (whose `stat` is `fileInfo`) must not be loaded, or `nil`: its
    /// directory is checked too. With `allowInsecure`, a problem is only warned about.
    package static func refusal(file: String, fileInfo: stat, allowInsecure: Bool, diagnostics: Diagnostics) -> String? {
        let directory = FilePath.directory(of: file)
        var directoryInfo = stat()
        guard fstatat(AT_FDCWD, directory, &directoryInfo, 0) == 0 else {
            return "cannot stat its directory \(directory): \(String(cString: strerror(errno)))"
        }
        guard let problem = problem(file: file, fileInfo: fileInfo, directory: directory, directoryInfo: directoryInfo) else { return nil }
        guard allowInsecure else { return problem }
        diagnostics.warning("\(escapeHatch): loading \(file) anyway: \(problem)")
        return nil
    }

    private static func problem(kind: String, path: String, info: stat, user: uid_t) -> String? {
        let mode = info.st_mode & 0o7777
        let consequence = kind == "file" ? "" : ", so others could put their code in place of the plugin"
        let hatch = "(or pass \(escapeHatch) for local development)"
        if info.st_uid != 0, info.st_uid != user {
            return "\(kind) \(path) is owned by uid \(info.st_uid), not root or the user running pricehost (uid \(user))\(consequence); fix with: chown \(user) \(path) \(hatch)"
        }
        // In a sticky directory (like /tmp) only a file's owner can replace it, and
        // the file's own owner is checked above: writable by others is safe there.
        if kind == "directory", mode & S_ISVTX != 0 { return nil }
        if mode & S_IWOTH != 0 {
            return "\(kind) \(path) is writable by others (mode \(octal(mode)))\(consequence); fix with: chmod o-w \(path) \(hatch)"
        }
        if mode & S_IWGRP != 0 {
            return "\(kind) \(path) is writable by its group (mode \(octal(mode)))\(consequence); fix with: chmod g-w \(path) \(hatch)"
        }
        return nil
    }

    private static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
