import Foundation
import PriceHostTesting

/// A small tmpfs that only one process sees: `unshare` starts it in a mount namespace of its own with
/// the tmpfs mounted there, so the mount goes with the process whatever becomes of the test, and no
/// other process on the machine sees it. Needs the right to mount (root, CAP_SYS_ADMIN).
struct PrivateTmpfs {
    /// Where it is mounted, in the process's namespace (an empty directory in the test's).
    let mountPoint: String
    /// Its size, as `mount -o size=` takes it.
    let size: String

    /// What runs a command with the tmpfs mounted: `launcher + [command, arguments…]`.
    var launcher: [String] {
        ["/usr/bin/env", "unshare", "--mount", "--propagation", "private",
         "/bin/sh", "-c", #"mount -t tmpfs -o "size=$1" tmpfs "$0" && shift && exec "$@""#, mountPoint, size]
    }

    /// The tmpfs, when this machine lets the test mount one; otherwise prints why `test` skips.
    static func make(at mountPoint: String, size: String, for test: String) -> PrivateTmpfs? {
        let tmpfs = PrivateTmpfs(mountPoint: mountPoint, size: size)
        // nsenter too: the tests reach into the namespace with it.
        let probe = try? CommandRunner.run(tmpfs.launcher[0], Array(tmpfs.launcher.dropFirst()) + ["/usr/bin/env", "nsenter", "--version"], timeout: 20)
        guard probe?.status == 0 else {
            print("\(test): skipped: cannot mount a tmpfs in a mount namespace of its own (this needs root, unshare(1) and nsenter(1)): \(probe.map(\.description) ?? "unshare did not run")")
            return nil
        }
        return tmpfs
    }

    /// Runs the shell `script` in the mount namespace of the process `pid` started: `$0` is the mount point.
    func run(_ script: String, inNamespaceOf pid: Int32) throws -> CommandResult {
        try CommandRunner.run("/usr/bin/env", ["nsenter", "--target", String(pid), "--mount", "/bin/sh", "-c", script, mountPoint], timeout: 30)
    }
}
