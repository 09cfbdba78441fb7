import Injection
import Glibc
import Synchronization

/// A file descriptor written a whole line at a time, so lines from
/// concurrent tasks never interleave.
public final class OutputStream: Sendable {
    private let descriptor: Int32
    private let lock = Lock(())

    /// Standard output: data.
    public static let standardOutput = OutputStream(descriptor: STDOUT_FILENO)
    /// Standard error: diagnostics.
    public static let standardError = OutputStream(descriptor: STDERR_FILENO)

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Writes `line` and a newline.
    public func writeLine(_ line: String) {
        write(line + "\n")
    }

    /// Ends the process with `status` once no line is being written, so none is left half-written.
    public func exitBetweenLines(status: Int32) -> Never {
        lock.withLock { _ in Glibc.exit(status) }
    }

    /// Writes `text` as it is; a closed pipe (EPIPE) is ignored rather than fatal.
    public func write(_ text: String) {
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
