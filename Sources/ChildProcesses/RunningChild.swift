import CChildProcess
import ConcurrencyHelpers
import Glibc

/// A child that has been started; ``wait()`` reads what it writes and reaps it.
public final class RunningChild: Sendable {
    public let pid: pid_t
    private let ownProcessGroup: Bool
    private let captures: [(descriptor: Int32, limit: Int)?]
    private let startNanoseconds: UInt64
    private let deadlineNanoseconds: UInt64
    private let outcome = Lock<ChildProcess.Outcome?>(nil)

    /// How long reading goes on past the deadline, once the watchdog has killed the child and its group.
    private static let graceNanoseconds: UInt64 = 2_000_000_000

    init(pid: pid_t, ownProcessGroup: Bool, captures: [(descriptor: Int32, limit: Int)?],
         startNanoseconds: UInt64, deadlineNanoseconds: UInt64) {
        self.pid = pid
        self.ownProcessGroup = ownProcessGroup
        self.captures = captures
        self.startNanoseconds = startNanoseconds
        self.deadlineNanoseconds = deadlineNanoseconds
    }

    /// Whether the child has exited (reaped by ``wait()`` or not yet); never blocks.
    public var hasExited: Bool {
        // 1: exited, not yet reaped; -1: no such child any more, reaped.
        cchild_has_exited(pid) != 0
    }

    /// Blocks until the child has exited (at the latest when the watchdog kills it at
    /// its deadline) and its captured output is read, then reaps it. A second call
    /// returns the same outcome.
    public func wait() -> ChildProcess.Outcome {
        outcome.withLock { outcome in
            if let outcome { return outcome }
            let finished = finish()
            outcome = finished
            return finished
        }
    }

    private func finish() -> ChildProcess.Outcome {
        let (texts, incomplete) = readCaptures()
        // Output still open at the deadline means something the child started held it.
        let heldPastDeadline = incomplete
            || (captures.contains { $0 != nil } && ChildProcess.monotonicNanoseconds() >= deadlineNanoseconds)
        // Wait without reaping: the pid stays this child's until the watchdog has let it go.
        _ = cchild_wait_exited(pid)
        let end = ChildProcess.monotonicNanoseconds()
        // Anything the child started and left behind goes with it.
        if ownProcessGroup { kill(-pid, SIGKILL) }
        let verdict = Watchdog.shared.release(pid)
        var status: Int32 = 0
        var usage = rusage()
        // EINTR is the only retry; the bound only guards against a signal storm. (It stops at the first
        // call that is not interrupted: a `where` clause would only skip the body and call wait4 1,000 times.)
        for _ in 0..<1_000 {
            guard wait4(pid, &status, 0, &usage) < 0, errno == EINTR else { break }
        }
        var ending: ChildProcess.Ending = status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
        if verdict == .killedRunning {
            ending = .timedOut
        } else if case .exited(let code) = ending, incomplete || (verdict == .killedAfterExit && heldPastDeadline) {
            ending = .leftProcessesRunning(code)
        }
        return ChildProcess.Outcome(ending: ending, standardOutput: texts[0], standardError: texts[1],
                                    elapsedNanoseconds: end &- startNanoseconds, maxResidentKilobytes: usage.ru_maxrss)
    }

    /// Reads both captured outputs at once until each ends, or until the grace after
    /// the deadline (something outside the child's group still holds it open).
    private func readCaptures() -> (texts: [String], incomplete: Bool) {
        var buffers: [[UInt8]] = [[], []]
        var open = captures.map { $0 != nil }
        defer { captures.forEach { if let capture = $0 { close(capture.descriptor) } } }
        let giveUp = deadlineNanoseconds &+ Self.graceNanoseconds
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while open.contains(true) {
            let now = ChildProcess.monotonicNanoseconds()
            guard now < giveUp else { break }
            var polled = (0..<2).filter { open[$0] }.map { index in
                pollfd(fd: captures[index]!.descriptor, events: Int16(POLLIN), revents: 0)
            }
            let waitMilliseconds = Int32(min((giveUp - now) / 1_000_000 + 1, 1_000))
            let ready = poll(&polled, nfds_t(polled.count), waitMilliseconds)
            if ready < 0 && errno != EINTR { break }
            for entry in polled where entry.revents != 0 {
                guard let index = (0..<2).first(where: { captures[$0]?.descriptor == entry.fd }),
                      let capture = captures[index] else { continue }
                let count = chunk.withUnsafeMutableBytes { read(capture.descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    let room = max(0, capture.limit - buffers[index].count)
                    buffers[index].append(contentsOf: chunk[0..<min(count, room)])
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    open[index] = false
                }
            }
        }
        return (buffers.map { String(decoding: $0, as: UTF8.self) }, open.contains(true))
    }
}
