import ConcurrencyHelpers
import Glibc
import Synchronization

/// Where diagnostics go: one line each on stderr, never mixed with data on stdout.
package final class Diagnostics: Sendable {
    /// A line's severity.
    package enum Level: Int, Sendable, Comparable {
        case debug, info, warning, error

        /// `debug`, `info`, `warning` or `error`, as `PRICEHOST_LOG` takes them.
        init?(name: String) {
            switch name.lowercased() {
            case "debug": self = .debug
            case "info": self = .info
            case "warning", "warn": self = .warning
            case "error": self = .error
            default: return nil
            }
        }

        package static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        package var label: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }
    }

    /// The process's log: stderr, at the level `PRICEHOST_LOG` names (`warning` when unset).
    package static let process = Diagnostics(threshold: getenv("PRICEHOST_LOG").flatMap { Level(name: String(cString: $0)) } ?? .warning)

    private let threshold: Level
    private let sink: @Sendable (String) -> Void
    private let counts = Lock<[Level: Int]>([:])

    /// Creates a log that prints lines at `threshold` and above through `sink` (stderr by default).
    package init(threshold: Level = .warning, sink: @escaping @Sendable (String) -> Void = Diagnostics.standardError) {
        self.threshold = threshold
        self.sink = sink
    }

    /// Writes `pricehost: <level>: <message>` when `level` is at or above the threshold.
    package func log(_ level: Level, _ message: String) {
        counts.withLock { $0[level, default: 0] += 1 }
        guard level >= threshold else { return }
        sink("pricehost: \(level.label): \(Self.oneLine(message))")
    }

    /// `text` with line breaks and other control characters escaped, so text
    /// from a plugin or a server can neither break the one-line rule nor forge
    /// a line of its own, nor drive the terminal.
    static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var output = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": output.append(contentsOf: "\\n".unicodeScalars)
            case "\r": output.append(contentsOf: "\\r".unicodeScalars)
            case "\t": output.append(contentsOf: "\\t".unicodeScalars)
            case _ where isControl(scalar): output.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            default: output.append(scalar)
            }
        }
        return String(output)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Whether lines of `level` are printed.
    package func isLogging(_ level: Level) -> Bool { level >= threshold }

    /// Writes a warning.
    package func warning(_ message: String) { log(.warning, message) }

    /// Writes an error.
    package func error(_ message: String) { log(.error, message) }

    /// How many lines of `level` were logged so far, printed or not.
    package func count(of level: Level) -> Int {
        counts.withLock { $0[level, default: 0] }
    }

    /// Writes one line to stderr.
    package static let standardError: @Sendable (String) -> Void = { line in
        LineOutput.standardError.writeLine(line)
    }
}
