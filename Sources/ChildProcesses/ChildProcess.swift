import CChildProcess
import Glibc

/// A program to run as a child process, with posix_spawn and no shell.
///
/// The one runner of the package: `check` runs its probes with it, the tests
/// run `pricehost` with it, and the benchmarks time children with it. Standard
/// input is /dev/null. A child that outlives its timeout is killed (SIGKILL),
/// with its process group when it has one of its own, so no wait blocks forever.
public struct ChildProcess: Sendable, CustomStringConvertible {
    /// Where a child's stdout or stderr goes.
    public enum Output: Sendable {
        /// Read into memory; past `limit` bytes the rest is read and dropped.
        case capture(limit: Int)
        /// /dev/null.
        case discard
        /// A file, created or truncated (mode 0644).
        case file(String)

        /// Everything up to 16 MiB.
        public static let capture = Output.capture(limit: 16 << 20)
    }

    /// How a child ended.
    public enum Ending: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)
        /// It was still running at its deadline; killed.
        case timedOut
        /// It exited, but something it started kept its output open until the deadline; killed.
        case leftProcessesRunning(Int32)
    }

    /// What a finished child left behind.
    public struct Outcome: Sendable {
        public var ending: Ending
        /// What it wrote to stdout, when that was captured.
        public var standardOutput: String
        /// What it wrote to stderr, when that was captured.
        public var standardError: String
        /// From just before posix_spawn to the moment it had exited.
        public var elapsedNanoseconds: UInt64
        /// Peak resident set size (ru_maxrss), KiB.
        public var maxResidentKilobytes: Int

        /// The exit status, or 128 + the signal, as a shell reports it; 137 when it was killed at the deadline.
        public var shellStatus: Int32 {
            switch ending {
            case .exited(let status), .leftProcessesRunning(let status): status
            case .signalled(let signal): 128 + signal
            case .timedOut: 128 + SIGKILL
            }
        }
    }

    public var executable: String
    public var arguments: [String]
    /// `NAME=value` entries; nil inherits this process's environment.
    public var environment: [String]?
    /// The child's working directory; nil keeps this process's.
    public var currentDirectory: String?
    public var standardOutput: Output
    public var standardError: Output
    /// Starts the child in a process group of its own, so that what it starts is killed with it.
    public var ownProcessGroup: Bool

    public init(_ executable: String, _ arguments: [String] = [], environment: [String]? = nil, currentDirectory: String? = nil,
                standardOutput: Output = .capture, standardError: Output = .capture, ownProcessGroup: Bool = false) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.currentDirectory = currentDirectory
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.ownProcessGroup = ownProcessGroup
    }

    /// The command as it could be pasted into a shell.
    public var description: String {
        ([executable] + arguments).map(Self.shellQuoted).joined(separator: " ")
    }

    /// Runs the child to its end, killing it at `timeout`.
    /// - Throws: ``SpawnError`` when it cannot be started.
    public func run(timeout: Duration) throws(SpawnError) -> Outcome {
        try start(timeout: timeout).wait()
    }

    /// Starts the child; the returned handle must be waited for.
    /// - Throws: ``SpawnError`` when it cannot be started.
    public func start(timeout: Duration) throws(SpawnError) -> RunningChild {
        var captures: [(descriptor: Int32, limit: Int)?] = [nil, nil]
        var childEnds: [Int32] = []
        defer { childEnds.forEach { close($0) } }
        func closeCaptures() { captures.forEach { if let capture = $0 { close(capture.descriptor) } } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (index, output) in [standardOutput, standardError].enumerated() {
            let descriptor = Int32(index + 1)
            switch output {
            case .discard:
                posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, descriptor, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case .capture(let limit):
                var ends: [Int32] = [-1, -1]
                guard cchild_pipe_cloexec(&ends) == 0 else {
                    closeCaptures()
                    throw SpawnError(command: description, reason: "pipe: " + String(cString: strerror(errno)))
                }
                captures[index] = (ends[0], max(0, limit))
                childEnds.append(ends[1])
                // dup2 clears close-on-exec on the copy, and only there.
                posix_spawn_file_actions_adddup2(&actions, ends[1], descriptor)
            }
        }
        // Only stdin, stdout and stderr reach the child.
        cchild_add_closefrom(&actions, 3)
        if let currentDirectory { cchild_add_chdir(&actions, currentDirectory) }

        // The child starts with default dispositions and no blocked signals, whatever this process set up.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGUSR1, SIGUSR2] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        var flags = Int32(POSIX_SPAWN_SETSIGDEF) | Int32(POSIX_SPAWN_SETSIGMASK)
        if ownProcessGroup {
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        // argv and the environment are C strings made before the clock starts, freed after the spawn.
        var owned: [UnsafeMutablePointer<CChar>?] = []
        defer { owned.forEach { free($0) } }
        func cString(_ text: String) -> UnsafeMutablePointer<CChar>? {
            let copy = strdup(text)
            owned.append(copy)
            return copy
        }
        let argv = ([executable] + arguments).map(cString) + [nil]
        let envp = environment.map { $0.map(cString) + [nil] }

        var pid: pid_t = 0
        let started = Self.monotonicNanoseconds()
        let status = envp.map { posix_spawn(&pid, executable, &actions, &attributes, argv, $0) }
            ?? posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard status == 0 else {
            closeCaptures()
            throw SpawnError(command: description, reason: String(cString: strerror(status)))
        }
        let deadline = started &+ Self.nanoseconds(timeout)
        Watchdog.shared.watch(pid, processGroup: ownProcessGroup, until: deadline)
        return RunningChild(pid: pid, ownProcessGroup: ownProcessGroup, captures: captures,
                            startNanoseconds: started, deadlineNanoseconds: deadline)
    }

    /// Has the kernel kill this process (SIGKILL) when its parent ends, however it ends, so a
    /// child never outlives the process that started it (`check`'s probes of a hung plugin).
    /// The parent must spawn it from a thread that lives until it reaps it, as ``run(timeout:)`` does.
    /// - Parameter parent: the parent's pid, as it passed it (it may have ended before this call); nil for the parent now.
    /// - Returns: false when the parent has already ended.
    public static func dieWithParent(_ parent: pid_t?) -> Bool {
        cchild_die_with_parent(parent ?? 0) != 1
    }

    /// Kills every child still running and every child started from now on: the process is being interrupted.
    public static func killAll() {
        Watchdog.shared.shutDown()
    }

    /// `SIGSEGV (segmentation fault)` for 11, and so on.
    public static func describe(signal: Int32) -> String {
        switch signal {
        case SIGSEGV: "SIGSEGV (segmentation fault)"
        case SIGABRT: "SIGABRT (abort)"
        case SIGBUS: "SIGBUS (bus error)"
        case SIGILL: "SIGILL (illegal instruction, e.g. a Swift trap)"
        case SIGFPE: "SIGFPE (arithmetic error)"
        case SIGKILL: "SIGKILL"
        case SIGTRAP: "SIGTRAP"
        default: "signal \(signal)"
        }
    }

    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }

    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? UInt64.max / 2 : whole &+ UInt64(attoseconds / 1_000_000_000)
    }

    private static func shellQuoted(_ word: String) -> String {
        let plain = word.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || "-_./,:=@+".utf8.contains(byte)
        }
        if plain, !word.isEmpty { return word }
        return "'" + word.replacing("'", with: "'\\''") + "'"
    }
}

/// A child could not be started.
public struct SpawnError: Error, CustomStringConvertible {
    public var command: String
    public var reason: String
    public var description: String { "cannot start \(command): \(reason)" }
}
