import Glibc
import PriceHostTesting

/// A user whom file modes stop, to run serve as: the test's own, or, when the tests run as root, `nobody`
/// (through setpriv(1)), with the sandbox handed over to it.
enum UnprivilegedUser {
    /// `nobody`'s ids.
    static let id = "65534"

    /// What runs serve as that user (nothing for a user other than root), once `directory` is theirs; `nil`,
    /// having printed why `test` skips, when it cannot be done.
    static func launcher(handingOver directory: String, for test: String) -> [String]? {
        guard geteuid() == 0 else { return [] }
        let handOver = try? CommandRunner.run("/usr/bin/env", ["chown", "-R", "\(id):\(id)", directory], timeout: 20)
        let probe = try? CommandRunner.run("/usr/bin/env", ["setpriv", "--reuid=\(id)", "--regid=\(id)", "--clear-groups", "/bin/true"], timeout: 20)
        guard handOver?.status == 0, probe?.status == 0 else {
            print("\(test): skipped: cannot run serve as nobody (chown: \(handOver.map(\.description) ?? "did not run"); setpriv: \(probe.map(\.description) ?? "did not run"))")
            return nil
        }
        return ["/usr/bin/env", "setpriv", "--reuid=\(id)", "--regid=\(id)", "--clear-groups"]
    }
}
