import Foundation
import Glibc
import Synchronization

/// A fresh directory under $TMPDIR (or /tmp) for generated plugins, configs and
/// captured output; removed at the end, on failure and on an interrupt.
final class ScratchDirectory: Sendable {
    let path: String
    private let counter = Atomic<Int>(0)
    private let removed = Mutex(false)

    init() throws {
        let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/pricehost-benchmark.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw BenchmarkError("cannot make a temporary directory in \(base): \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
        // The host refuses plugins in directories others could write to; mkdtemp's 0700 is
        // safe too, but 0755 is what an installed plugin directory looks like.
        chmod(path, 0o755)
    }

    /// A path in the directory that no other call returned: `stem-N.suffix`.
    func uniquePath(_ stem: String, suffix: String) -> String {
        let number = counter.wrappingAdd(1, ordering: .relaxed).newValue
        return "\(path)/\(stem)-\(number).\(suffix)"
    }

    /// Makes `name` (a subdirectory) with mode 0755 and returns its path.
    func makeDirectory(_ name: String) throws -> String {
        let directory = "\(path)/\(name)"
        guard mkdir(directory, 0o755) == 0 else {
            throw BenchmarkError("cannot make \(directory): \(String(cString: strerror(errno)))")
        }
        return directory
    }

    /// Writes `text` to `name` in the directory and returns its path.
    func write(_ text: String, to name: String) throws -> String {
        let file = "\(path)/\(name)"
        guard FileManager.default.createFile(atPath: file, contents: Data(text.utf8)) else {
            throw BenchmarkError("cannot write \(file)")
        }
        return file
    }

    /// Removes the directory and everything in it, once. On an interrupt the signal
    /// handler and the main thread both get here; two removals of one tree at once
    /// each fail on what the other deleted and leave the rest behind, so a second
    /// caller waits for the first to finish.
    func remove() {
        removed.withLock { removed in
            guard !removed else { return }
            removed = true
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// The text of a file, or "" when it cannot be read (captured output of a child that wrote nothing).
    static func contents(of path: String) -> String {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
