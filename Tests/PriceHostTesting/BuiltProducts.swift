import Foundation

/// Where `swift build` put the products the tests run: the directory of the
/// running test bundle, which is the build configuration's product directory.
public enum BuiltProducts {
    /// The product directory, e.g. `.build/x86_64-unknown-linux-gnu/debug`.
    public static let directory: String = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var url = URL(fileURLWithPath: executable).deletingLastPathComponent()
        // On Linux the test bundle is a plain executable in the product directory;
        // step out of a `.xctest` directory if a toolchain nests it.
        if url.pathExtension == "xctest" { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The built `pricehost` executable.
    public static var pricehost: String { directory + "/pricehost" }

    /// A built plugin, e.g. `libFileProvider.so`.
    public static func plugin(_ name: String) -> String { directory + "/" + name }

    /// The root of the package checkout.
    public static let packageRoot: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }()

    /// The directory holding `pricehost_plugin.h`.
    public static var abiHeaderDirectory: String { packageRoot + "/Sources/CProviderABI/include" }
}
