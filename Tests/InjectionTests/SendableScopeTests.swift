import Dispatch
import Foundation
import Testing

/// A non-`Sendable` service in `.singleton` or `.weak` does not compile (it used to stop at
/// run time). These tests type-check small programs against the Injection module just built,
/// with the toolchain that built it; the first one must compile, so a broken harness fails.
struct SendableScopeTests {
    private static let prelude = """
        import Injection
        final class Scratchpad { var notes: [String] = [] }
        final class Shared: Sendable {}
        let container = Container()

        """

    /// The type checker's complaints for `body`, or "" when it compiles. The compiler runs
    /// for seconds, so it is waited for on a thread of its own: on Swift Testing's pool (two
    /// threads here) six such waits held back every other test for a minute under load.
    private func typeCheck(_ body: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try Self.typeCheckWaiting(body) })
            }
        }
    }

    private static func typeCheckWaiting(_ body: String) throws -> String {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let modules = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("Modules").path
        let source = FileManager.default.temporaryDirectory
            .appendingPathComponent("sendable-scope-\(UUID().uuidString).swift")
        try (Self.prelude + body).write(to: source, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: source) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-typecheck", "-swift-version", "6", "-I", modules, source.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Bounded: a type checker that hangs is stopped after two minutes, and the test fails.
        DispatchQueue.global().asyncAfter(deadline: .now() + 120) {
            if process.isRunning {
                process.terminate()
            }
        }
        let output = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? "" : String(decoding: output, as: UTF8.self)
    }

    @Test
    func graphAndTransientCompileForANonSendableService() async throws {
        let errors = try await typeCheck("""
            container.register(Scratchpad.self) { _ in Scratchpad() }
            container.register(Scratchpad.self, name: "t", scope: .transient) { _ in Scratchpad() }
            container.register { Scratchpad() }.scope(.graph)
            container.register(Shared.self, scope: .singleton) { _ in Shared() }
            """)

        #expect(errors == "")
    }

    @Test(arguments: [
        "container.register(Scratchpad.self, scope: .singleton) { _ in Scratchpad() }",
        "container.register(Scratchpad.self, scope: .weak) { _ in Scratchpad() }",
        "container.register { Scratchpad() }.scope(.singleton)",
        "container.register(Scratchpad.self) { _ in Scratchpad() }.inObjectScope(.container)",
        "container.autoregister(Scratchpad.self, scope: .cached, initializer: Scratchpad.init)",
    ])
    func sharedScopesDoNotCompileForANonSendableService(_ line: String) async throws {
        let errors = try await typeCheck(line)

        #expect(errors.contains("error:"))
    }
}
