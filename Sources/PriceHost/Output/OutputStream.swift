import ConcurrencyHelpers
import Glibc
import Synchronization

/// A file descriptor written a whole line at a time, so lines from
/// concurrent tasks never interleave.
final class OutputStream: Sendable {
    private let descriptor: Int32
    private let lock = Lock(())

    /// Standard output: data.
    static let standardOutput = OutputStream(descriptor: protectedStandardOutput())

    /// Moves the data channel off file descriptor 1: pricehost's data goes to a
    /// duplicate of the original stdout, and descriptor 1 is pointed at stderr.
    /// A plugin that prints, to stdout or by `printf`, then lands among the
    /// diagnostics and can never forge a data line. Runs once, on first use of
    /// ``standardOutput``; the app touches it before loading any plugin.
    private static func protectedStandardOutput() -> Int32 {
        let data = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
        guard data >= 0 else { return STDOUT_FILENO }
        _ = dup2(STDERR_FILENO, STDOUT_FILENO)
        return data
    }
    /// Standard error: diagnostics.
    static let standardError = OutputStream(descriptor: STDERR_FILENO)

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Writes `line` and a newline.
    func writeLine(_ line: String) {
        write(line + "\n")
    }

    /// Ends the process with `status` once no line is being written, so none is left half-written.
    func exitBetweenLines(status: Int32) -> Never {
        lock.withLock { _ in Glibc.exit(status) }
    }

    /// Writes `text` as it is; a closed pipe (EPIPE) is ignored rather than fatal.
    func write(_ text: String) {
        var bytes = Array(text.utf8)
        lock.withLock { _ in
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeMutableBytes { buffer in
                    Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                }
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
