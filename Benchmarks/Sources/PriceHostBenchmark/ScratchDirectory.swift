import Glibc
import PriceHostTesting
import Synchronization

/// A fresh directory (the tests' ``TemporaryDirectory``) for generated plugins,
/// configs and captured output; removed at the end, on failure and on an interrupt.
final class ScratchDirectory: Sendable {
    private let directory: TemporaryDirectory
    private let counter = Atomic<Int>(0)
    private let removed = Mutex(false)

    var path: String { directory.path }

    init() throws {
        do {
            directory = try TemporaryDirectory(prefix: "pricehost-benchmark")
        } catch {
            throw BenchmarkError("cannot make a temporary directory: \(error)")
        }
        // The host refuses plugins in directories others could write to.
        chmod(directory.path, 0o755)
    }

    /// A path in the directory that no other call returned: `stem-N.suffix`.
    func uniquePath(_ stem: String, suffix: String) -> String {
        let number = counter.wrappingAdd(1, ordering: .relaxed).newValue
        return "\(path)/\(stem)-\(number).\(suffix)"
    }

    /// Makes `name` (a subdirectory) with mode 0755 and returns its path.
    func makeDirectory(_ name: String) throws -> String {
        let subdirectory = directory.file(name)
        guard mkdir(subdirectory, 0o755) == 0 else {
            throw BenchmarkError("cannot make \(subdirectory): \(String(cString: strerror(errno)))")
        }
        return subdirectory
    }

    /// Writes `text` to `name` in the directory and returns its path.
    func write(_ text: String, to name: String) throws -> String {
        do {
            return try directory.write(text, to: name)
        } catch {
            throw BenchmarkError("cannot write \(directory.file(name)): \(error)")
        }
    }

    /// Removes the directory and everything in it, once. On an interrupt the signal
    /// handler and the main thread both get here; two removals of one tree at once
    /// each fail on what the other deleted and leave the rest behind, so a second
    /// caller waits for the first to finish.
    func remove() {
        removed.withLock { removed in
            guard !removed else { return }
            removed = true
            directory.remove()
        }
    }

    /// The text of a file, or "" when it cannot be read (captured output of a child that wrote nothing).
    static func contents(of path: String) -> String {
        guard let file = fopen(path, "r") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
