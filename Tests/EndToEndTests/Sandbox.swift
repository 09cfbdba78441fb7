import Foundation
import PriceHostTesting

/// A temporary directory with a config and data files, and the built
/// `pricehost` run against it as a user would.
struct Sandbox {
    let directory: TemporaryDirectory

    /// The test plugin's source.
    static let testPluginSource = BuiltProducts.packageRoot + "/Tests/EndToEndTests/Fixtures/test_plugin.c"

    init(config: String, files: [String: String] = [:]) throws {
        directory = try TemporaryDirectory()
        try directory.write(config, to: "plugins.json")
        for (name, contents) in files { try directory.write(contents, to: name) }
    }

    var configPath: String { directory.file("plugins.json") }

    /// Runs `pricehost ARGUMENTS --config plugins.json` in the sandbox.
    func run(_ arguments: [String], environment: [String: String] = [:], timeout: Double = 60) throws -> CommandResult {
        try CommandRunner.run(BuiltProducts.pricehost, arguments + ["--config", configPath],
                              environment: environment, currentDirectory: directory.path, timeout: timeout)
    }

    /// Builds the test plugin with `defines` and returns its path.
    static func testPlugin(_ defines: [String] = [], name: String = "libCTest.so") throws -> String {
        try CPluginCompiler.compile(source: testPluginSource, defines: defines, name: name)
    }

    /// Removes the sandbox.
    func remove() { directory.remove() }
}

/// JSON text of a config naming `plugins` (paths or names) with the file provider on `prices`.
func configJSON(plugins: [String], extra: String = "") -> String {
    let list = plugins.map { "\"\($0)\"" }.joined(separator: ", ")
    return """
        {
          "plugins": [\(list)],
          "providers": {"file": {"path": "prices.json"}},
          "defaults": {"provider": "file", "currency": "USD"}\(extra)
        }
        """
}

let samplePrices = """
    [
      {"base": "BTC", "currency": "USD", "amount": "91234.56", "timestamp": "2026-11-20T12:00:00Z"},
      {"base": "ETH", "currency": "USD", "amount": "3120.48", "timestamp": "2026-11-20T12:00:00Z"}
    ]
    """

/// The file's SHA-256 as coreutils' sha256sum computes it: an oracle independent of pricehost's own.
func sha256sum(_ path: String) throws -> String {
    let result = try CommandRunner.run("/usr/bin/sha256sum", [path])
    return String(result.standardOutput.prefix(64))
}
