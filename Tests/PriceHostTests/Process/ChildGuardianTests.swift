import ChildProcesses
import Foundation
import Glibc
import PriceHostTestTraits
import PriceHostTesting
import Testing

/// A test run killed with SIGKILL leaves nothing running: what its tests started (a server,
/// a process group a script made) dies with it. Shown on this very test binary: it is run
/// again, with only the fixture below, and killed once the fixture's children are up.
@Suite(.offThePool, .timeLimit(.minutes(2)))
struct ChildGuardianTests {
    /// Set for the inner run only: where the fixture writes its children's pids.
    static let fixtureVariable = "PRICEHOST_GUARDIAN_FIXTURE"

    @Test func whatATestStartedDiesWhenTheTestProcessIsKilled() throws {
        let directory = try TemporaryDirectory(prefix: "pricehost-guardian")
        defer { directory.remove() }
        let pidsFile = directory.file("pids")
        // This test binary, running only the fixture.
        let testBinary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var environment = CommandRunner.inheritedEnvironment
        environment[Self.fixtureVariable] = pidsFile
        let inner = try ChildProcess(testBinary, ["--testing-library", "swift-testing", "--filter", "ChildGuardianFixture"],
                                     environment: environment.map { "\($0.key)=\($0.value)" }, currentDirectory: directory.path,
                                     standardOutput: .discard, standardError: .file(directory.file("inner.stderr")))
            .start(timeout: .seconds(90))
        ChildGuardian.watch(inner.pid)
        defer {
            kill(inner.pid, SIGKILL)
            ChildGuardian.forget(inner.pid)
            _ = inner.wait()
        }

        // Bounded: 60 s in steps of 50 ms, for the inner run to start its children.
        var pids: [pid_t] = []
        for _ in 0..<1_200 {
            let text = (try? String(contentsOfFile: pidsFile, encoding: .utf8)) ?? ""
            if text.hasSuffix("\n") {
                pids = text.split(whereSeparator: \.isWhitespace).compactMap { pid_t($0) }
                break
            }
            if inner.hasExited { break }
            usleep(50_000)
        }
        let innerLog = (try? String(contentsOfFile: directory.file("inner.stderr"), encoding: .utf8)) ?? ""
        try #require(pids.count == 3, "the fixture did not report its children; its stderr: \(innerLog.suffix(2000))")
        #expect(pids.allSatisfy(Self.isAlive), "the fixture's children were not all running before the kill")

        kill(inner.pid, SIGKILL)
        // Bounded: 10 s in steps of 20 ms.
        for _ in 0..<500 {
            guard pids.contains(where: Self.isAlive) else { break }
            usleep(20_000)
        }
        let survivors = pids.filter(Self.isAlive)
        #expect(survivors.isEmpty, "still running after the test process was killed: \(survivors)")
    }

    /// Not dead and not a zombie waiting for init to reap it.
    static func isAlive(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
        return state != "Z" && state != "X"
    }
}

/// The inner run's test: starts what tests start (a background server; a script whose own
/// process group holds a grandchild), writes their pids, and waits to be killed.
@Suite(.offThePool, .enabled(if: ProcessInfo.processInfo.environment[ChildGuardianTests.fixtureVariable] != nil))
struct ChildGuardianFixture {
    @Test func startsChildrenAndWaitsToBeKilled() throws {
        let pidsFile = try #require(ProcessInfo.processInfo.environment[ChildGuardianTests.fixtureVariable])
        let directory = try TemporaryDirectory(prefix: "pricehost-guardian-fixture")
        let server = try BackgroundProcess("/bin/sleep", ["60"], currentDirectory: directory.path)
        // A script in a group of its own that starts a grandchild and waits for it, as a browser's driver does.
        let grandchildFile = directory.file("grandchild")
        Thread.detachNewThread {
            _ = try? CommandRunner.run("/bin/sh", ["-c", "/bin/sleep 60 & echo $! > '\(grandchildFile)'; echo $$ >> '\(grandchildFile)'; wait"],
                                       timeout: 60, ownProcessGroup: true)
        }
        // Bounded: 10 s in steps of 10 ms.
        var others: [String] = []
        for _ in 0..<1_000 {
            others = ((try? String(contentsOfFile: grandchildFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            if others.count == 2 { break }
            usleep(10_000)
        }
        try #require(others.count == 2)
        try "\(server.pid) \(others.joined(separator: " "))\n".write(toFile: pidsFile, atomically: true, encoding: .utf8)
        // Killed during this wait by the test above; bounded at 60 s if it never comes.
        for _ in 0..<600 { usleep(100_000) }
    }
}
