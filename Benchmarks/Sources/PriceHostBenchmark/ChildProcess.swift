import Glibc

/// Where a child's stdout or stderr goes.
enum OutputTarget: Sendable {
    /// /dev/null: timed runs write nothing anywhere that could slow them down.
    case discard
    /// A file, created or truncated.
    case file(String)
}

/// How a child ended, and what it cost.
struct ChildResult: Sendable {
    enum Ending: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)
        /// Killed by the watchdog after its time limit.
        case timedOut(seconds: Double)
    }

    let ending: Ending
    /// From just before posix_spawn to the moment it had exited.
    let elapsedNanoseconds: UInt64
    /// Peak resident set size (rusage.ru_maxrss), KiB.
    let maxResidentKilobytes: Int

    var succeeded: Bool { ending == .exited(0) }
    var milliseconds: Double { Double(elapsedNanoseconds) / 1_000_000 }

    var endingDescription: String {
        switch ending {
        case .exited(let status): "exited with status \(status)"
        case .signalled(let signal): "was killed by signal \(signal)"
        case .timedOut(let seconds): "did not finish within \(Int(seconds)) s and was killed"
        }
    }
}

/// A child that has been started and not yet waited for.
struct RunningChild: Sendable {
    let pid: pid_t
    let command: Command
    let startNanoseconds: UInt64
    let timeoutSeconds: Double

    /// Blocks until the child exits (at the latest when the watchdog kills it), then reaps it.
    func waitForExit() -> ChildResult {
        var info = siginfo_t()
        // Wait without reaping first: the watchdog may still signal the pid until it is released.
        for _ in 0..<1_000_000 {
            if waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == 0 || errno != EINTR { break }
        }
        let end = Monotonic.nanoseconds()
        let killedForTime = Watchdog.shared.release(pid)
        var status: Int32 = 0
        var usage = rusage()
        for _ in 0..<1_000_000 {
            if wait4(pid, &status, 0, &usage) >= 0 || errno != EINTR { break }
        }
        let ending: ChildResult.Ending
        if killedForTime {
            ending = .timedOut(seconds: timeoutSeconds)
        } else if status & 0x7f == 0 {
            ending = .exited((status >> 8) & 0xff)
        } else {
            ending = .signalled(status & 0x7f)
        }
        return ChildResult(ending: ending, elapsedNanoseconds: end &- startNanoseconds, maxResidentKilobytes: usage.ru_maxrss)
    }
}

/// Runs programs with posix_spawn: stdin from /dev/null, stdout and stderr where
/// asked, the ``ChildEnvironment``, and SIGINT/SIGTERM back at their defaults.
enum ChildProcess {
    /// Starts `command`, and runs it to the end.
    static func run(_ command: Command, standardOutput: OutputTarget = .discard, standardError: OutputTarget = .discard,
                    timeoutSeconds: Double) throws -> ChildResult {
        try start(command, standardOutput: standardOutput, standardError: standardError, timeoutSeconds: timeoutSeconds).waitForExit()
    }

    /// Starts `command`; the watchdog kills it if it runs longer than `timeoutSeconds`.
    /// `extraEnvironment` (`NAME=value`) is added to the ``ChildEnvironment``, e.g. a `PRICEHOST_` setting it drops.
    static func start(_ command: Command, standardOutput: OutputTarget = .discard, standardError: OutputTarget = .discard,
                      timeoutSeconds: Double, extraEnvironment: [String] = []) throws -> RunningChild {
        // The C strings of argv and the environment are made before the clock starts, and freed after the spawn.
        var owned: [UnsafeMutablePointer<CChar>?] = []
        defer { owned.forEach { free($0) } }
        func cString(_ text: String) -> UnsafeMutablePointer<CChar>? {
            let copy = strdup(text)
            owned.append(copy)
            return copy
        }
        let arguments = ([command.executable] + command.arguments).map(cString) + [nil]
        let environment = (ChildEnvironment.entries + extraEnvironment).map(cString) + [nil]

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // glibc (2.29 and later) copies the path, so Swift's temporary C string is enough here.
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (descriptor, target) in [(Int32(1), standardOutput), (Int32(2), standardError)] {
            switch target {
            case .discard:
                posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, descriptor, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            }
        }
        // The benchmark handles SIGINT itself (to clean up); its children must not inherit that.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))

        var pid: pid_t = 0
        let start = Monotonic.nanoseconds()
        let status = posix_spawn(&pid, command.executable, &actions, &attributes, arguments, environment)
        guard status == 0 else {
            throw BenchmarkError("cannot start \(command): \(String(cString: strerror(status)))")
        }
        Watchdog.shared.watch(pid, until: start + UInt64(timeoutSeconds * 1_000_000_000))
        return RunningChild(pid: pid, command: command, startNanoseconds: start, timeoutSeconds: timeoutSeconds)
    }
}
