import Foundation

/// A fresh directory under the system's temporary directory, removed by ``remove()``.
public struct TemporaryDirectory: Sendable {
    /// The directory, absolute, links resolved.
    public let path: String

    /// Creates the directory.
    public init(prefix: String = "pricehost-test") throws {
        let base = NSTemporaryDirectory() + "/\(prefix)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        path = URL(fileURLWithPath: base).resolvingSymlinksInPath().path
    }

    /// `path/name`.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `contents` to `path/name`, creating directories on the way; returns the file's path.
    @discardableResult
    public func write(_ contents: String, to name: String) throws -> String {
        try write(Data(contents.utf8), to: name)
    }

    /// Writes `data` to `path/name`, creating directories on the way; returns the file's path.
    @discardableResult
    public func write(_ data: Data, to name: String) throws -> String {
        let target = file(name)
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: target))
        return target
    }

    /// Removes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Runs `body` with a new directory and removes it afterwards.
    public static func with<Result>(_ body: (TemporaryDirectory) async throws -> Result) async throws -> Result {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        return try await body(directory)
    }
}
