import Glibc
import Synchronization

/// Signals handled as soon as ``install(_:handler:)`` returns: `sigaction` is synchronous,
/// where a Dispatch signal source is armed later, on its queue, and a signal in between
/// would be lost (or, before `SIG_IGN`, kill the process). The handler only writes the
/// signal's number to a pipe (async-signal-safe); a thread of its own reads it and calls
/// `handler` there.
package enum SignalPipe {
    /// The pipe's write end, read by the signal handler; set before any handler is installed.
    private static let writeEnd = Atomic<Int32>(-1)

    /// Handles `signals` with `handler`, on a thread of its own, one at a time.
    /// - Returns: false when no pipe or thread could be made (out of descriptors or memory).
    package static func install(_ signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) -> Bool {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return false }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // A full pipe drops a signal rather than blocking the handler.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        writeEnd.store(ends[1], ordering: .releasing)
        let reader = ends[0]
        guard DetachedThread.start(stackBytes: 256 * 1024, {
            var byte: UInt8 = 0
            while true {
                let count = read(reader, &byte, 1)
                if count < 0, errno == EINTR { continue }
                guard count == 1 else { return }
                handler(Int32(byte))
            }
        }) else { return false }
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                let saved = errno
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(SignalPipe.writeEnd.load(ordering: .acquiring), &byte, 1)
                errno = saved
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
        return true
    }
}
