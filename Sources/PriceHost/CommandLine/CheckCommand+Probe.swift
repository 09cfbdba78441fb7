import ChildProcesses
import FoundationEssentials
import PriceHostCore
import ProviderABI

extension CheckCommand {
    /// What one child reported.
    struct ProbeResult {
        var path: String
        var name: String?
        var version: String?
        var abi: String?
        var sha256: String?
        var fetchers: [String] = []
        var fetches: [String] = []
        var problems: [String] = []
        var loadFailure: String?
        /// The plugin logged a warning or error.
        var logged = false
    }

    /// Runs `pricehost __probe` on one file and reads what it says.
    func probe(_ candidate: PluginLoader.Candidate, extraArguments: [String] = [], relayLog: Bool = true,
               config: Config, executable: String, _ context: CommandContext) -> ProbeResult {
        let diagnostics = context.diagnostics
        var result = ProbeResult(path: candidate.path)
        // `check --plugin` without `--config` hands the plugin `{}`: its probe gets no config either.
        let hasConfigFile = plugins.configPath != nil || (pluginPath == nil && FileManager.default.fileExists(atPath: config.path))
        var arguments = ["__probe"] + (hasConfigFile ? ["--config", config.path] : []) + ["--plugin", candidate.path] + extraArguments
        if plugins.allowInsecurePlugins { arguments.append("--allow-insecure-plugins") }
        // Loading, the probe's idle limit, and the slowest HTTP any provider's policy allows
        // (the fetches run at once), with room to spare.
        let slowestHTTP = ([ProviderPolicy()] + config.providerPolicies.values).map(\.worstCaseHTTPTime).max() ?? .zero
        let timeout = Duration.seconds(15) + ProbeCommand.fetchTimeout + slowestHTTP
        let outcome: ChildProcess.Outcome
        do {
            // In a process group of its own, so whatever a plugin starts is killed with it.
            outcome = try ChildProcess(executable, arguments, ownProcessGroup: true).run(timeout: timeout)
        } catch {
            result.problems.append("plugin \(candidate.path): could not start the check process \(executable): \(error)")
            return result
        }
        var stage = "load"
        var inFlight: [String] = []
        var garbage: String?
        var done = false
        for line in outcome.standardOutput.split(separator: "\n").map(String.init) {
            guard let value = try? JSONParser.parse(line), case .object(let object) = value,
                  case .string(let kind)? = object["probe"] else {
                garbage = garbage ?? line
                continue
            }
            func text(_ key: String) -> String? {
                if case .string(let value)? = object[key] { return value }
                return nil
            }
            switch kind {
            case "load-failed":
                result.loadFailure = text("error")
                result.problems.append("plugin \(candidate.path): \(text("error") ?? "did not load")")
            case "finding":
                result.problems.append("plugin \(candidate.path): \(text("text") ?? "")")
            case "conformance-done":
                inFlight.removeAll { $0 == "\(text("pair") ?? "?") through \(text("fetcher") ?? "?")" }
                stage = inFlight.isEmpty ? "after the fetches" : "fetch of " + inFlight.joined(separator: ", ")
            case "loaded":
                result.name = text("name")
                result.version = text("version")
                result.abi = text("abi")
                result.sha256 = text("sha256")
                if case .array(let names)? = object["fetchers"] {
                    result.fetchers = names.compactMap { if case .string(let name) = $0 { name } else { nil } }
                }
            case "fetching":
                inFlight.append("\(text("pair") ?? "?") through \(text("fetcher") ?? "?")")
                stage = "fetch of " + inFlight.joined(separator: ", ")
            case "fetched":
                let label = "fetch \(text("pair") ?? "?") through \(text("fetcher") ?? "?")"
                if case .bool(true)? = object["ok"] {
                    result.fetches.append("\(label): \(text("amount") ?? "")")
                } else if case .bool(true)? = object["refused"] {
                    result.problems.append("plugin \(candidate.path): the host refused its answer to the \(label): \(text("error") ?? "")")
                } else if text("code") == ProviderError.Code.noCompletion.rawValue {
                    result.problems.append("plugin \(candidate.path): never completed the \(label) (waited \(ProbeCommand.fetchTimeout))")
                } else {
                    result.fetches.append("\(label): failed cleanly: \(text("error") ?? "")")
                }
                inFlight.removeAll { $0 == "\(text("pair") ?? "?") through \(text("fetcher") ?? "?")" }
                stage = inFlight.isEmpty ? "after the fetches" : "fetch of " + inFlight.joined(separator: ", ")
            case "done":
                done = true
                if case .number(let count)? = object["lateCompletions"], count != "0" {
                    result.problems.append("plugin \(candidate.path): called a fetch completion more than once (\(count) extra call(s)); call it exactly once")
                }
                if case .number(let count)? = object["strayProcesses"], count != "0" {
                    result.problems.append("plugin \(candidate.path): left \(count) process(es) running after the check; killed them")
                }
            default:
                garbage = garbage ?? line
            }
        }
        var logged = false
        for line in outcome.standardError.split(separator: "\n") {
            guard line.hasPrefix("pricehost: ") else {
                // The probe's stdout is its protocol on a private descriptor; descriptor 1
                // points at stderr, so whatever a plugin prints lands here.
                garbage = garbage ?? String(line)
                continue
            }
            // The child's own diagnostics: plugin log lines and host warnings, relayed.
            if relayLog {
                diagnostics.log(line.hasPrefix("pricehost: error:") ? .error : .warning, "plugin \(candidate.path) (in check): " + line.dropFirst("pricehost: ".count))
            }
            logged = logged || line.hasPrefix("pricehost: error:") || line.hasPrefix("pricehost: warning:")
        }
        switch outcome.ending {
        case .signalled(let signal):
            result.problems.append("plugin \(candidate.path): crashed with \(ChildProcess.describe(signal: signal)) during \(stage)")
        case .timedOut:
            result.problems.append("plugin \(candidate.path): did not finish within \(timeout) during \(stage); killed")
        case .exited(let status) where status != 0 || !done:
            if result.problems.isEmpty {
                result.problems.append("plugin \(candidate.path): the check process exited with status \(status) during \(stage)")
            }
        case .leftProcessesRunning:
            result.problems.append("plugin \(candidate.path): left processes running that held the check's output past \(timeout); killed them")
        case .exited:
            break
        }
        if case .signalled = outcome.ending { garbage = nil }  // a crash's own report is not the plugin printing
        if case .timedOut = outcome.ending { garbage = nil }
        result.logged = logged
        if logged, result.problems.isEmpty {
            result.problems.append("plugin \(candidate.path): logged a warning or error while being checked (above)")
        }
        if let garbage {
            result.problems.append("plugin \(candidate.path): printed to stdout or stderr instead of logging through the host: \(JSONValue.quoted(String(garbage.prefix(120))))")
        }
        return result
    }
}
