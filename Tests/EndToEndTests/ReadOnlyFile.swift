import Glibc
import PriceHostTesting

/// A file that no process of this user can write, root's included: `chmod 0444`, and for root, whom
/// modes do not stop, `chattr +i` (immutable) as well. ``undo()`` makes it writable again.
struct ReadOnlyFile {
    let path: String
    private(set) var immutable = false

    /// Makes `path` read-only, or prints why `test` skips when this user can still write it.
    static func make(_ path: String, for test: String) -> ReadOnlyFile? {
        var file = ReadOnlyFile(path: path)
        chmod(path, 0o444)
        if isWritable(path) {
            let chattr = try? CommandRunner.run("/usr/bin/env", ["chattr", "+i", path], timeout: 20)
            file.immutable = chattr?.status == 0
            guard !isWritable(path) else {
                file.undo()
                print("\(test): skipped: \(path) stays writable for this user (uid \(geteuid())) with mode 0444, and chattr +i failed: \(chattr.map(\.description) ?? "chattr did not run")")
                return nil
            }
        }
        return file
    }

    /// Whether this process could open `path` for writing (it writes nothing).
    static func isWritable(_ path: String) -> Bool {
        let descriptor = open(path, O_WRONLY)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }

    /// Writable again.
    func undo() {
        if immutable { _ = try? CommandRunner.run("/usr/bin/env", ["chattr", "-i", path], timeout: 20) }
        chmod(path, 0o644)
    }
}
