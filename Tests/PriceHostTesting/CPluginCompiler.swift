import Foundation
import Glibc
import Synchronization

/// Builds C plugins for tests with the system C compiler, against the
/// repository's `pricehost_plugin.h`. Each distinct build is done once per
/// test process and shared.
public enum CPluginCompiler {
    private static let cache = Mutex<[String: String]>([:])

    /// Compiles `source` into a shared library with `defines` (`NAME` or `NAME=VALUE`) and returns its path.
    ///
    /// - Throws: ``CommandResult`` text when the compiler fails.
    public static func compile(source: String, defines: [String] = [], name: String,
                               includeDirectory: String = BuiltProducts.abiHeaderDirectory) throws -> String {
        let key = ([source, name, includeDirectory] + defines).joined(separator: "|")
        if let built = cache.withLock({ $0[key] }) { return built }
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("pricehost-cplugins-\(getpid())-\(abs(key.hashValue))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let output = directory + "/" + name
        // Tests run in parallel and may build the same plugin at once: each compiles to a
        // file of its own and renames it into place, so nobody ever loads a half-written one.
        let scratch = output + ".\(UUID().uuidString).tmp"
        let arguments = ["-shared", "-fPIC", "-O1", "-Wall", "-Werror", "-fvisibility=hidden",
                         "-I", includeDirectory] + defines.map { "-D" + $0 } + ["-o", scratch, source]
        let result = try CommandRunner.run(compiler, arguments, timeout: 120)
        guard result.status == 0 else { throw CompileError(result: result) }
        guard rename(scratch, output) == 0 else { throw CompileError(result: CommandResult(status: errno, standardOutput: "", standardError: "rename \(scratch) failed")) }
        cache.withLock { $0[key] = output }
        return output
    }

    /// `$CC`, else `cc`, found on PATH.
    static var compiler: String {
        if let fromEnvironment = ProcessInfo.processInfo.environment["CC"], !fromEnvironment.isEmpty { return fromEnvironment }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let candidate = "\(directory)/cc"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return "/usr/bin/cc"
    }

    /// The compiler failed.
    public struct CompileError: Error, CustomStringConvertible {
        public var result: CommandResult
        public var description: String { "C compiler failed: \(result)" }
    }
}
