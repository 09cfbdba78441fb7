import ChildProcesses
import FoundationEssentials
import Glibc
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
        // `check --plugin` without `--config` hands the plugin `{}`: its probe gets no config either.
        let hasConfigFile = plugins.configPath != nil || (pluginPath == nil && FileManager.default.fileExists(atPath: config.path))
        var arguments = ["__probe"] + (hasConfigFile ? ["--config", config.path] : []) + ["--plugin", candidate.path]
            + ["--parent", String(getpid())] + extraArguments
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
            var result = ProbeResult(path: candidate.path)
            result.problems.append("plugin \(candidate.path): could not start the check process \(executable): \(error)")
            return result
        }
        return Self.read(outcome.standardOutput, outcome.standardError, ending: outcome.ending, path: candidate.path,
                         timeout: timeout, relayingTo: relayLog ? diagnostics : nil)
    }

    /// What a probe of the plugin at `path` said, from what it left: its events
    /// on stdout, its diagnostics (relayed to `relay`, when there is one) and
    /// whatever the plugin printed on stderr, and how it ended.
    static func read(_ standardOutput: String, _ standardError: String, ending: ChildProcess.Ending, path: String,
                     timeout: Duration, relayingTo relay: Diagnostics?) -> ProbeResult {
        var result = ProbeResult(path: path)
        var stage = "load"
        var inFlight: [String] = []
        var garbage: String?
        var done = false
        func finished(_ fetch: String) {
            inFlight.removeAll { $0 == fetch }
            stage = inFlight.isEmpty ? "after the fetches" : "fetch of " + inFlight.joined(separator: ", ")
        }
        let decoder = JSONDecoder()
        for line in standardOutput.split(separator: "\n") {
            guard let event = ProbeEvent(line: line, decoder: decoder) else {
                garbage = garbage ?? String(line)
                continue
            }
            switch event {
            case .loadFailed(let error):
                result.loadFailure = error
                result.problems.append("plugin \(path): \(error)")
            case .finding(let text):
                result.problems.append("plugin \(path): \(text)")
            case .conformanceDone(let fetcher, let pair):
                finished("\(pair) through \(fetcher)")
            case .loaded(let plugin):
                result.name = plugin.name
                result.version = plugin.version
                result.abi = plugin.abi
                result.sha256 = plugin.sha256
                result.fetchers = plugin.fetchers
            case .fetching(let fetcher, let pair):
                inFlight.append("\(pair) through \(fetcher)")
                stage = "fetch of " + inFlight.joined(separator: ", ")
            case .fetched(let fetcher, let pair, let outcome):
                let label = "fetch \(pair) through \(fetcher)"
                switch outcome {
                case .quote(let amount):
                    result.fetches.append("\(label): \(amount)")
                case .failed(_, let error, refused: true):
                    result.problems.append("plugin \(path): the host refused its answer to the \(label): \(error)")
                case .failed(.noCompletion, _, _):
                    result.problems.append("plugin \(path): never completed the \(label) (waited \(ProbeCommand.fetchTimeout))")
                case .failed(_, let error, _):
                    result.fetches.append("\(label): failed cleanly: \(error)")
                }
                finished("\(pair) through \(fetcher)")
            case .done(let lateCompletions, let strayProcesses):
                done = true
                if lateCompletions != 0 {
                    result.problems.append("plugin \(path): called a fetch completion more than once (\(lateCompletions) extra call(s)); call it exactly once")
                }
                if strayProcesses != 0 {
                    result.problems.append("plugin \(path): left \(strayProcesses) process(es) running after the check; killed them")
                }
            }
        }
        var logged = false
        for line in standardError.split(separator: "\n") {
            guard line.hasPrefix("pricehost: ") else {
                // The probe's stdout is its protocol on a private descriptor; descriptor 1
                // points at stderr, so whatever a plugin prints lands here.
                garbage = garbage ?? String(line)
                continue
            }
            // The child's own diagnostics: plugin log lines and host warnings, relayed.
            if let relay {
                relay.log(line.hasPrefix("pricehost: error:") ? .error : .warning, "plugin \(path) (in check): " + line.dropFirst("pricehost: ".count))
            }
            logged = logged || line.hasPrefix("pricehost: error:") || line.hasPrefix("pricehost: warning:")
        }
        switch ending {
        case .signalled(let signal):
            result.problems.append("plugin \(path): crashed with \(ChildProcess.describe(signal: signal)) during \(stage)")
        case .timedOut:
            result.problems.append("plugin \(path): did not finish within \(timeout) during \(stage); killed")
        case .exited(let status) where status != 0 || !done:
            if result.problems.isEmpty {
                result.problems.append("plugin \(path): the check process exited with status \(status) during \(stage)")
            }
        case .leftProcessesRunning:
            result.problems.append("plugin \(path): left processes running that held the check's output past \(timeout); killed them")
        case .exited:
            break
        }
        if case .signalled = ending { garbage = nil }  // a crash's own report is not the plugin printing
        if case .timedOut = ending { garbage = nil }
        result.logged = logged
        if logged, result.problems.isEmpty {
            result.problems.append("plugin \(path): logged a warning or error while being checked (above)")
        }
        if let garbage {
            result.problems.append("plugin \(path): printed to stdout or stderr instead of logging through the host: \(JSONValue.quoted(String(garbage.prefix(120))))")
        }
        return result
    }
}
