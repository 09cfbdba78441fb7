import Foundation
import Glibc

/// One JSON line a child printed (`pricehost __store-bench`, `store-ingest.py`), read as an object.
struct JSONLine {
    let command: Command
    private let object: [String: Any]

    /// The last line of `captured`'s stdout, which must be a JSON object.
    init(_ captured: Captured, of command: Command) throws {
        guard let line = captured.lines.last, let data = line.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Timing.failure("this command printed no JSON object", command, captured)
        }
        self.command = command
        self.object = object
    }

    private init(command: Command, object: [String: Any]) {
        self.command = command
        self.object = object
    }

    /// The number at `key`.
    func number(_ key: String) throws -> Double {
        guard let value = object[key] as? NSNumber else { throw missing(key, "a number") }
        return value.doubleValue
    }

    /// The text at `key`; nil when it is `null` or absent.
    func text(_ key: String) -> String? {
        object[key] as? String
    }

    /// The object at `key`.
    func nested(_ key: String) throws -> JSONLine {
        guard let value = object[key] as? [String: Any] else { throw missing(key, "an object") }
        return JSONLine(command: command, object: value)
    }

    private func missing(_ key: String, _ what: String) -> BenchmarkError {
        BenchmarkError("store: \(key) is not \(what) in what this command printed:\n  \(command)\n  \(object)")
    }
}

/// The store case's children: `pricehost __store-bench MODE …` and the Python yardstick.
enum StoreBench {
    /// Runs `pricehost __store-bench arguments…` to the end; its JSON line.
    /// - Throws: ``BenchmarkError`` with its stderr unless it exits 0 and prints one.
    static func run(_ context: BenchmarkContext, _ arguments: [String], timeoutSeconds: Double = 900) throws -> JSONLine {
        try runJSON(Command(context.locations.pricehost, ["__store-bench"] + arguments), context, timeoutSeconds: timeoutSeconds)
    }

    /// Runs `command`, capturing its output; its last line, as JSON.
    static func runJSON(_ command: Command, _ context: BenchmarkContext, timeoutSeconds: Double = 900) throws -> JSONLine {
        let outputPath = context.scratch.uniquePath("store", suffix: "out")
        let errorPath = context.scratch.uniquePath("store", suffix: "err")
        let result = try Children.run(command, standardOutput: .file(outputPath), standardError: .file(errorPath), timeoutSeconds: timeoutSeconds)
        let captured = Captured(standardOutput: ScratchDirectory.contents(of: outputPath), standardError: ScratchDirectory.contents(of: errorPath))
        guard result.succeeded else { throw Timing.failure("this command \(result.endingDescription)", command, captured) }
        return try JSONLine(captured, of: command)
    }

    /// Removes a store's file and its -wal and -shm, once a run no longer needs it (a million quotes is 25 MB).
    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    }

    /// `time` as ISO 8601 UTC, to the second.
    static func iso(_ time: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: time)
    }
}
