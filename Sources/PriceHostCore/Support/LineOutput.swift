import ConcurrencyHelpers
import Glibc
import Synchronization

/// A file descriptor written a whole line at a time, so lines from
/// concurrent tasks never interleave. (Not Foundation's `OutputStream`: this one
/// writes a descriptor directly.)
package final class LineOutput: Sendable {
    private let descriptor: Int32
    private let lock = Lock(())

    /// Standard output: data.
    package static let standardOutput = LineOutput(descriptor: StandardOutputGuard.moveDataChannelOffDescriptorOne())


    /// Standard error: diagnostics.
    package static let standardError = LineOutput(descriptor: STDERR_FILENO)

    package init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Writes `line` and a newline.
    package func writeLine(_ line: String) {
        write(line + "\n")
    }

    /// Runs `body`, which ends the process, once no line is being written, and lets no
    /// other line be written meanwhile (e.g. a report the process would print as it ends).
    package func endingProcess(_ body: () -> Never) -> Never {
        lock.withLock { _ in body() }
    }

    /// Ends the process with `status` once no line is being written, so none is left half-written.
    package func exitBetweenLines(status: Int32) -> Never {
        lock.withLock { _ in Glibc.exit(status) }
    }

    /// Writes `text` as it is; a closed pipe (EPIPE) is ignored rather than fatal.
    package func write(_ text: String) {
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
