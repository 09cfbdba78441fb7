import Foundation
import PriceHostTestTraits
import PriceHostTesting
import Testing

/// `check` runs each plugin in a child process: a plugin that crashes, hangs
/// or misbehaves is named with what happened, and check itself carries on and
/// exits normally with status 3.
@Suite(.offThePool, .timeLimit(.minutes(3)))
struct CheckCommandTests {
    func check(_ variant: String, name: String) throws -> (CommandResult, String) {
        let plugin = try Sandbox.testPlugin([variant], name: name)
        let sandbox = try Sandbox(config: configJSON(plugins: ["libFileProvider.so", plugin]), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        return (try sandbox.run(["check"]), plugin)
    }

    /// The good plugin beside the bad one is still checked and reported.
    func expectGoodPluginReported(_ result: CommandResult) {
        #expect(result.outputLines.contains("plugin file 1.0.0 (\(BuiltProducts.plugin("libFileProvider.so"))): ok, fetchers: file"), "\(result)")
        #expect(result.outputLines.contains("  fetch BTC-USD through file: 91234.56"))
    }

    @Test func abortDuringEntryIsReportedWithTheSignal() throws {
        let (result, plugin) = try check("VARIANT_ABORT_ENTRY", name: "libAbort.so")
        #expect(result.status == 3, "\(result)")
        #expect(result.errorLines == ["pricehost: error: plugin \(plugin): crashed with SIGABRT (abort) during load"])
        #expect(result.outputLines.last == "check failed: 1 problem(s), 0 warning(s)")
        expectGoodPluginReported(result)
    }

    @Test func nullDereferenceInFetchIsReportedWithTheSignalAndTheFetch() throws {
        let (result, plugin) = try check("VARIANT_NULL_FETCH", name: "libNull.so")
        #expect(result.status == 3, "\(result)")
        #expect(result.errorLines == ["pricehost: error: plugin \(plugin): crashed with SIGSEGV (segmentation fault) during fetch of BTC-USD through ctest"])
        expectGoodPluginReported(result)
    }

    @Test func fetchThatNeverCompletesIsReported() throws {
        let (result, plugin) = try check("VARIANT_NO_COMPLETION", name: "libSilent.so")
        #expect(result.status == 3, "\(result)")
        #expect(result.errorLines == ["pricehost: error: plugin \(plugin): never completed the fetch BTC-USD through ctest (waited 5.0 seconds)"])
        expectGoodPluginReported(result)
    }

    @Test func completionCalledTwiceIsReported() throws {
        let (result, plugin) = try check("VARIANT_TWICE", name: "libTwice.so")
        #expect(result.status == 3, "\(result)")
        #expect(result.errorLines.contains("pricehost: error: plugin \(plugin): called a fetch completion more than once (1 extra call(s)); call it exactly once"), "\(result)")
        // One line, not a warning per extra call relayed from the probe.
        #expect(!result.standardError.contains("already finished"), "\(result)")
        expectGoodPluginReported(result)
    }

    @Test func pluginPrintingToStdoutIsReported() throws {
        let (result, plugin) = try check("VARIANT_GARBAGE", name: "libChatty.so")
        #expect(result.status == 3, "\(result)")
        #expect(result.errorLines == [#"pricehost: error: plugin \#(plugin): printed to stdout or stderr instead of logging through the host: "hello from the plugin""#])
        expectGoodPluginReported(result)
    }

    @Test func processLeftRunningByAPluginIsKilledAndReported() throws {
        let (result, plugin) = try check("VARIANT_FORK", name: "libFork.so")
        #expect(result.status == 3, "\(result)")
        #expect(result.errorLines == ["pricehost: error: plugin \(plugin): left 1 process(es) running after the check; killed them"])
        expectGoodPluginReported(result)
    }

    @Test func pluginPrintsNeverReachFetchsData() throws {
        let plugin = try Sandbox.testPlugin(["VARIANT_GARBAGE"], name: "libChatty.so")
        let sandbox = try Sandbox(config: configJSON(plugins: [plugin]), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--provider", "ctest", "--asset", "BTC", "--format", "csv"])
        #expect(result == CommandResult(status: 0, standardOutput: """
            asset,currency,amount,provider,timestamp
            BTC,USD,100.25,ctest,2025-11-20T12:00:00Z

            """, standardError: "hello from the plugin\n"))
    }
}

/// `check` killed from outside (a caller's `timeout`, Ctrl-C, a closed terminal)
/// takes its probes, and what they started, with it.
@Suite(.offThePool, .timeLimit(.minutes(2)))
struct CheckTerminationTests {
    /// The pids of `parent`'s children, from /proc.
    static func children(of parent: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { processStatus($0)?.parent == parent }
    }

    /// A process's state letter, parent and process group, from /proc/PID/stat.
    static func processStatus(_ pid: Int32) -> (state: Character, parent: Int32, group: Int32)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // After "pid (comm) ": state, ppid, pgrp.
        let fields = text[text.index(close, offsetBy: 2)...].split(separator: " ")
        guard fields.count > 2, let state = fields[0].first, let parent = Int32(fields[1]), let group = Int32(fields[2]) else { return nil }
        return (state, parent, group)
    }

    /// Live (not zombie) processes in process group `group`.
    static func liveMembers(of group: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter {
            guard let status = processStatus($0) else { return false }
            return status.group == group && status.state != "Z"
        }
    }

    /// `pricehost check` started on the test plugin built with `variants`, left running.
    static func startCheck(of variants: [String], name: String) throws -> (BackgroundProcess, Sandbox) {
        let plugin = try Sandbox.testPlugin(variants, name: name)
        let sandbox = try Sandbox(config: configJSON(plugins: [plugin]), files: ["prices.json": samplePrices])
        do {
            let check = try BackgroundProcess(BuiltProducts.pricehost, ["check", "--config", sandbox.configPath],
                                              currentDirectory: sandbox.directory.path)
            return (check, sandbox)
        } catch {
            sandbox.remove()
            throw error
        }
    }

    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func checkKilledMidProbeLeavesNoProcessBehind(signal: Int32) async throws {
        try await offThePool {
            // A plugin that starts a process of its own at load, then never completes its fetch:
            // the probe runs for its whole 5 s fetch timeout.
            let (check, sandbox) = try Self.startCheck(of: ["VARIANT_FORK", "VARIANT_NO_COMPLETION"], name: "libForkSilent.so")
            defer { sandbox.remove() }
            // Wait (at most 20 s) for the probe, and for the process its plugin started in the probe's group.
            var probe: Int32?
            for _ in 0..<2000 {
                if let found = Self.children(of: check.pid).first, Self.liveMembers(of: found).count >= 2 {
                    probe = found
                    break
                }
                usleep(10_000)
            }
            let group = try #require(probe, "no probe with a process of its plugin's appeared; check's stderr: \(check.standardError)")
            #expect(Self.processStatus(group)?.group == group, "the probe leads a process group of its own")
            #expect(check.terminate(signal: signal, within: 10) == 128 + signal)
            // Killed with SIGKILL before check exits; give the kernel a moment to finish (at most 5 s).
            var survivors = Self.liveMembers(of: group)
            for _ in 0..<500 where !survivors.isEmpty {
                usleep(10_000)
                survivors = Self.liveMembers(of: group)
            }
            #expect(survivors.isEmpty, "left running in the probe's group \(group): \(survivors)")
        }
    }

    @Test func checkKilledWithSIGKILLTakesItsProbeWithIt() throws {
        // A fetch that never completes: the probe would wait out its 5 s fetch timeout, and a
        // plugin truly hung would keep it forever. Nothing in check runs after SIGKILL: the kernel
        // ends the probe (PR_SET_PDEATHSIG).
        let (check, sandbox) = try Self.startCheck(of: ["VARIANT_NO_COMPLETION"], name: "libSilent.so")
        defer { sandbox.remove() }
        // Bounded: 20 s in steps of 10 ms, for the probe to start.
        var probe: Int32?
        for _ in 0..<2000 {
            probe = Self.children(of: check.pid).first
            if probe != nil { break }
            usleep(10_000)
        }
        let started = try #require(probe, "no probe appeared; check's stderr: \(check.standardError)")
        #expect(check.terminate(signal: SIGKILL, within: 10) == 128 + SIGKILL)
        // Bounded: 3 s in steps of 10 ms; the probe's own fetch timeout alone would take 5 s.
        var alive = true
        for _ in 0..<300 {
            alive = Self.processStatus(started).map { $0.state != "Z" } ?? false
            if !alive { break }
            usleep(10_000)
        }
        #expect(!alive, "the probe \(started) outlived check")
    }
}
