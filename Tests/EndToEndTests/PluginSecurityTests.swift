import Foundation
import Glibc
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// Plugin files others could replace are refused before dlopen; pins are checked.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct PluginSecurityTests {
    /// A sandbox with the test plugin copied into `plugins.d/libCTest.so`, named in `plugins`.
    func sandbox(pin: String? = nil) throws -> (Sandbox, String) {
        let sandbox = try Sandbox(config: "{}", files: ["prices.json": samplePrices])
        let directory = sandbox.directory.file("plugins.d")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let plugin = directory + "/libCTest.so"
        try FileManager.default.copyItem(atPath: Sandbox.testPlugin(), toPath: plugin)
        let entry = pin.map { #"{"path": "plugins.d/libCTest.so", "sha256": "\#($0)"}"# } ?? #""plugins.d/libCTest.so""#
        try sandbox.directory.write(#"{"plugins": [\#(entry)]}"#, to: "plugins.json")
        return (sandbox, plugin)
    }

    func fetch(_ sandbox: Sandbox, _ extra: [String] = []) throws -> CommandResult {
        try sandbox.run(["fetch", "--provider", "ctest", "--asset", "BTC", "--format", "csv"] + extra)
    }

    static let served = "asset,currency,amount,provider,timestamp\nBTC,USD,100.25,ctest,2025-11-20T12:00:00Z\n"

    @Test func worldWritableFileIsRefusedWithTheFix() throws {
        let (sandbox, plugin) = try sandbox()
        defer { sandbox.remove() }
        chmod(plugin, 0o666)
        let result = try fetch(sandbox)
        #expect(result == CommandResult(status: 2, standardOutput: "", standardError: """
            pricehost: warning: plugin \(plugin): file \(plugin) is writable by others (mode 0666); fix with: chmod o-w \(plugin) (or pass --allow-insecure-plugins for local development)
            pricehost: error: unknown provider 'ctest' (from --provider); no plugin loaded

            """))
    }

    @Test func groupWritableDirectoryIsRefusedWithTheFix() throws {
        let (sandbox, plugin) = try sandbox()
        defer { sandbox.remove() }
        let directory = sandbox.directory.file("plugins.d")
        chmod(directory, 0o775)
        let result = try fetch(sandbox)
        #expect(result.status == 2, "\(result)")
        #expect(result.errorLines.first == "pricehost: warning: plugin \(plugin): directory \(directory) is writable by its group (mode 0775), so others could put their code in place of the plugin; fix with: chmod g-w \(directory) (or pass --allow-insecure-plugins for local development)")
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a file to another user"))
    func fileOwnedByAnotherUserIsRefused() throws {
        let (sandbox, plugin) = try sandbox()
        defer { sandbox.remove() }
        #expect(chown(plugin, 65534, 65534) == 0)
        let result = try fetch(sandbox)
        #expect(result.status == 2, "\(result)")
        #expect(result.errorLines.first == "pricehost: warning: plugin \(plugin): file \(plugin) is owned by uid 65534, not root or the user running pricehost (uid 0); fix with: chown 0 \(plugin) (or pass --allow-insecure-plugins for local development)")
    }

    @Test func escapeHatchLoadsWithAWarning() throws {
        let (sandbox, plugin) = try sandbox()
        defer { sandbox.remove() }
        chmod(plugin, 0o666)
        let result = try fetch(sandbox, ["--allow-insecure-plugins"])
        #expect(result == CommandResult(status: 0, standardOutput: Self.served, standardError: """
            pricehost: warning: --allow-insecure-plugins: loading \(plugin) anyway: file \(plugin) is writable by others (mode 0666); fix with: chmod o-w \(plugin) (or pass --allow-insecure-plugins for local development)

            """))
    }

    @Test func matchingPinLoads() throws {
        let plain = try sandbox()
        let digest = try sha256sum(plain.1)
        plain.0.remove()
        let (sandbox, _) = try sandbox(pin: digest.uppercased())
        defer { sandbox.remove() }
        #expect(try fetch(sandbox) == CommandResult(status: 0, standardOutput: Self.served, standardError: ""))
    }

    @Test func mismatchedPinIsRefusedWithBothHashes() throws {
        let pin = String(repeating: "ab", count: 32)
        let (sandbox, plugin) = try sandbox(pin: pin)
        defer { sandbox.remove() }
        let actual = try sha256sum(plugin)
        let result = try fetch(sandbox)
        #expect(result == CommandResult(status: 2, standardOutput: "", standardError: """
            pricehost: warning: plugin \(plugin): sha256 is \(actual), but plugins[0].sha256 pins \(pin); if the plugin was upgraded on purpose, update the pin
            pricehost: error: unknown provider 'ctest' (from --provider); no plugin loaded

            """))
    }
}
