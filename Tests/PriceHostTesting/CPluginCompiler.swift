import ConcurrencyHelpers
import Foundation
import Glibc

/// Builds C plugins for tests with the system C compiler, against the
/// repository's `pricehost_plugin.h`. Each distinct build is done once per
/// test process and shared.
public enum CPluginCompiler {
    private static let builds = BuildOnce()

    /// Compiles `source` into a shared library with `defines` (`NAME` or `NAME=VALUE`) and returns its path.
    ///
    /// - Parameter outputDirectory: where the library goes; by default a directory of this process's under the temporary directory.
    /// - Throws: ``CompileError`` with the compiler's output when it fails.
    public static func compile(source: String, defines: [String] = [], name: String,
                               includeDirectory: String = BuiltProducts.abiHeaderDirectory, into outputDirectory: String? = nil) throws -> String {
        let key = ([source, name, includeDirectory, outputDirectory ?? ""] + defines).joined(separator: "|")
        return try builds.path(for: key) {
            let directory = try outputDirectory ?? ProcessScratch.directory("cplugins-\(abs(key.hashValue))")
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let output = directory + "/" + name
            // Compiled to a file of its own and renamed into place, so nobody ever loads a half-written one.
            let scratch = output + ".\(UUID().uuidString).tmp"
            let arguments = ["-shared", "-fPIC", "-O1", "-Wall", "-Werror", "-fvisibility=hidden",
                             "-I", includeDirectory] + defines.map { "-D" + $0 } + ["-o", scratch, source]
            let result = try CommandRunner.run(compiler, arguments, timeout: 120)
            guard result.status == 0 else { throw CompileError(result: result) }
            guard rename(scratch, output) == 0 else { throw CompileError(result: CommandResult(status: errno, standardOutput: "", standardError: "rename \(scratch) failed")) }
            return output
        }
    }

    /// `$CC`, else `cc`, found on PATH.
    static var compiler: String {
        if let fromEnvironment = ProcessInfo.processInfo.environment["CC"], !fromEnvironment.isEmpty { return fromEnvironment }
        return BuildOnce.executable("cc", fallback: "/usr/bin/cc")
    }

    /// The compiler failed.
    public struct CompileError: Error, CustomStringConvertible {
        public var result: CommandResult
        public var description: String { "C compiler failed: \(result)" }
    }
}
