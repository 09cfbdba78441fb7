import Glibc

/// A pipe that wakes a thread sleeping in `poll`: any thread may ``wake()``; the
/// sleeper polls ``readEnd`` and calls ``drain()``. Both ends are non-blocking, so
/// a wake into a full pipe is dropped (the sleeper is awake already).
///
/// The ends are closed when the pipe is released, not before: a thread that wakes
/// a connection that has just ended must not write into a descriptor number that
/// something else has been given since.
package final class WakePipe: Sendable {
    /// Poll this for `POLLIN`.
    package let readEnd: Int32
    private let writeEnd: Int32

    /// A new pipe; `nil` when the process is out of descriptors.
    package init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        // Set after pipe() rather than with pipe2, which Glibc's module does not export: a child
        // spawned by another thread in between would inherit the ends, and do nothing with them.
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        Glibc.close(readEnd)
        Glibc.close(writeEnd)
    }

    /// Wakes the thread polling ``readEnd``.
    package func wake() {
        var byte: UInt8 = 1
        _ = Glibc.write(writeEnd, &byte, 1)
    }

    /// Empties the pipe, so that the next `poll` sleeps until the next ``wake()``.
    package func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        // Bounded: wakes are single bytes, and 64 KiB is more than a pipe holds. It stops at the
        // first read that finds the pipe empty (EAGAIN): a `where` clause would only skip the
        // body, and make every drain 1,024 reads.
        for _ in 0..<1_024 {
            guard Glibc.read(readEnd, &bytes, bytes.count) > 0 else { return }
        }
    }
}
