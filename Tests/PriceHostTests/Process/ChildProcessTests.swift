import ChildProcesses
import Glibc
import PriceHostTestTraits
import Testing

@Suite(.timeLimit(.minutes(5)), .serialized, .blockingLane)
struct ChildProcessTests {
    @Test func capturesBothOutputsAndTheStatus() throws {
        let outcome = try ChildProcess("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"]).run(timeout: .seconds(20))
        #expect(outcome.ending == .exited(3))
        #expect(outcome.standardOutput == "out\n")
        #expect(outcome.standardError == "err\n")
        #expect(outcome.shellStatus == 3)
        #expect(outcome.maxResidentKilobytes > 0)
    }

    @Test func reportsTheSignalThatEndedIt() throws {
        let outcome = try ChildProcess("/bin/sh", ["-c", "kill -SEGV $$"]).run(timeout: .seconds(20))
        #expect(outcome.ending == .signalled(SIGSEGV))
        #expect(outcome.shellStatus == 128 + SIGSEGV)
    }

    @Test func killsAChildAtItsDeadline() throws {
        let outcome = try ChildProcess("/bin/sleep", ["30"]).run(timeout: .milliseconds(300))
        #expect(outcome.ending == .timedOut)
        #expect(outcome.elapsedNanoseconds < 20_000_000_000)
    }

    @Test func killsWhatTheChildLeftHoldingItsOutput() throws {
        // The shell exits at once; the sleep it started keeps stdout open until the group is killed.
        let child = ChildProcess("/bin/sh", ["-c", "/bin/sleep 30 & echo started"], ownProcessGroup: true)
        let outcome = try child.run(timeout: .seconds(1))
        #expect(outcome.ending == .leftProcessesRunning(0))
        #expect(outcome.standardOutput == "started\n")
    }

    @Test func usesTheGivenEnvironmentAndDirectory() throws {
        let child = ChildProcess("/bin/sh", ["-c", "echo \"$GREETING\"; echo \"${HOME:-none}\"; pwd"], environment: ["GREETING=hello there"],
                                 currentDirectory: "/tmp")
        let outcome = try child.run(timeout: .seconds(20))
        #expect(outcome.standardOutput == "hello there\nnone\n/tmp\n")
    }

    @Test func keepsOnlyTheCaptureLimitAndNeverBlocksTheChild() throws {
        let child = ChildProcess("/bin/sh", ["-c", "head -c 300000 /dev/zero; echo done >&2"], standardOutput: .capture(limit: 1000))
        let outcome = try child.run(timeout: .seconds(20))
        #expect(outcome.ending == .exited(0))
        #expect(outcome.standardOutput.utf8.count == 1000)
        #expect(outcome.standardError == "done\n")
    }

    @Test func aProgramThatCannotStartIsAnError() {
        #expect(throws: SpawnError.self) {
            _ = try ChildProcess("/nonexistent/program").run(timeout: .seconds(5))
        }
    }

    @Test func startsManyAtOnceAndWaitsForEach() throws {
        let children = try (0..<8).map { index in
            try ChildProcess("/bin/sh", ["-c", "echo \(index)"]).start(timeout: .seconds(20))
        }
        let outputs = children.map { $0.wait().standardOutput }
        #expect(outputs == (0..<8).map { "\($0)\n" })
    }
}

@Suite(.timeLimit(.minutes(5)), .serialized, .blockingLane)
struct ChildProcessDescriptorTests {
    @Test func aChildInheritsNoDescriptorBeyondStandardError() throws {
        // Opened without close-on-exec, as a test's listening socket is.
        let descriptor = open("/dev/null", O_RDONLY)
        #expect(descriptor > 2)
        defer { close(descriptor) }
        let outcome = try ChildProcess("/bin/sh", ["-c", "test -e /proc/$$/fd/\(descriptor) && echo inherited || echo closed"])
            .run(timeout: .seconds(20))
        #expect(outcome.standardOutput == "closed\n")
    }
}
