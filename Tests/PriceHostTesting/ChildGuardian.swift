import CChildProcess
import Glibc

/// Kills every process the tests started when the test process ends, however it ends:
/// SIGKILL, a crash, or a normal exit with a server left running.
///
/// A small `/bin/sh` guardian, started on first use in a process group of its own, reads
/// one line per child from a socket whose other end only this process holds (close-on-exec,
/// so no child inherits it): `add PID`, or `add -PGID` for a child leading a process group
/// of its own, and `del …` once the test has reaped it. When this process ends, for any
/// reason, the kernel closes that end; the guardian reads the end of its input and sends
/// SIGKILL to each child and group still listed, then exits.
///
/// Children are listed from just after their spawn until just after their reaping, so a
/// pid on the list is always still the child's (exited but unreaped at worst): the guardian
/// never signals a number that another process has been given since.
public enum ChildGuardian {
    /// The guardian's socket, or `nil` when it could not start (then children are only killed as before, by their owners).
    private static let channel: Int32? = start()

    /// The guardian's script: `live` holds " PID -PGID … ".
    static let script = """
        trap '' INT TERM HUP QUIT PIPE
        live=' '
        while IFS= read -r entry; do
          case $entry in
            'add '*) live="$live${entry#add } " ;;
            'del '*) target=${entry#del }
                     case $live in *" $target "*) live="${live%% "$target" *} ${live#* "$target" }" ;; esac ;;
          esac
        done
        for target in $live; do kill -s KILL -- "$target" 2>/dev/null; done
        exit 0
        """

    /// Lists `pid` (its whole process group when `group`), to be killed if this process ends first.
    public static func watch(_ pid: pid_t, group: Bool = false) {
        send("add \(group ? "-" : "")\(pid)\n")
    }

    /// Takes `pid` (or its group) off the list: it has been reaped, or is about to be.
    public static func forget(_ pid: pid_t, group: Bool = false) {
        send("del \(group ? "-" : "")\(pid)\n")
    }

    private static func send(_ line: String) {
        guard let channel else { return }
        var bytes = Array(line.utf8)
        // One short line is one atomic write on a stream socket; MSG_NOSIGNAL: a dead guardian is no reason to die.
        _ = bytes.withUnsafeMutableBytes { Glibc.send(channel, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    private static func start() -> Int32? {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else { return nil }
        defer { close(ends[1]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Nothing else of this process (a test's listener, a client's socket) stays open in the guardian.
        cchild_add_closefrom(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A group of its own: a Ctrl-C at the terminal ends the tests, not their guardian.
        posix_spawnattr_setpgroup(&attributes, 0)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))
        func cStrings(_ words: [String]) -> [UnsafeMutablePointer<CChar>?] { words.map { word in strdup(word) } + [nil] }
        let arguments = cStrings(["/bin/sh", "-c", script, "pricehost-test-guardian"])
        defer { arguments.forEach { free($0) } }
        let environment = cStrings(["PATH=/usr/bin:/bin"])
        defer { environment.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/bin/sh", &actions, &attributes, arguments, environment) == 0 else {
            close(ends[0])
            return nil
        }
        return ends[0]
    }
}
