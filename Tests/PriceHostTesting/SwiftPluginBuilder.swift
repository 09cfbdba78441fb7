import ConcurrencyHelpers
import Foundation
import Glibc

/// Builds Swift plugins for tests the way an author builds one out of tree: a
/// package of its own that depends on this checkout's `ProviderABI` product,
/// built with `swift build`. Each distinct build is done once per test process.
public enum SwiftPluginBuilder {
    private static let builds = BuildOnce()

    /// Builds a dynamic library named `lib<product>.so` from the one Swift file
    /// `source` and returns its path, readable and executable, writable only by its owner.
    ///
    /// - Throws: ``BuildError`` with swift build's output when it fails.
    public static func build(source: String, product: String) throws -> String {
        try builds.path(for: source + "|" + product) {
            let package = try ProcessScratch.directory("swiftplugins-\(product)")
            try FileManager.default.createDirectory(atPath: package + "/Sources/\(product)", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: source, toPath: package + "/Sources/\(product)/\(product).swift")
            // A path dependency's identity is its directory's name, whatever the checkout is called.
            let root = BuiltProducts.packageRoot
            let identity = URL(fileURLWithPath: root).lastPathComponent.lowercased()
            try """
                // swift-tools-version: 6.0
                import PackageDescription

                let package = Package(
                    name: "\(product)",
                    products: [.library(name: "\(product)", type: .dynamic, targets: ["\(product)"])],
                    dependencies: [.package(path: "\(root)")],
                    targets: [.target(name: "\(product)", dependencies: [.product(name: "ProviderABI", package: "\(identity)")])]
                )

                """.write(toFile: package + "/Package.swift", atomically: true, encoding: .utf8)
            let result = try CommandRunner.run(swift, ["build", "--package-path", package, "--product", product],
                                               currentDirectory: package, timeout: 600)
            guard result.status == 0 else { throw BuildError(result: result) }
            // Into a directory of its own: plugins (and their directory) must not be
            // writable by group or others, whatever the umask.
            let directory = package + "/plugin"
            let installed = directory + "/lib\(product).so"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: package + "/.build/debug/lib\(product).so", toPath: installed)
            guard chmod(directory, 0o755) == 0, chmod(installed, 0o755) == 0 else {
                throw BuildError(result: CommandResult(status: errno, standardOutput: "", standardError: "chmod \(installed) failed"))
            }
            return installed
        }
    }

    /// The `swift` that built the tests (the toolchain on PATH).
    static var swift: String { BuildOnce.executable("swift", fallback: "/usr/bin/swift") }

    /// swift build failed.
    public struct BuildError: Error, CustomStringConvertible {
        public var result: CommandResult
        public var description: String { "swift build failed: \(result)" }
    }
}
