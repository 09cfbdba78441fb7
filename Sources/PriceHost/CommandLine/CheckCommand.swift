import Foundation
import ProviderABI

/// `pricehost check`: validates the config, then loads and exercises each
/// plugin in a child process of its own (`pricehost __probe`), so a plugin
/// that crashes, aborts, hangs or prints garbage is reported, with the signal
/// or the timeout, and the check carries on with the rest.
///
/// Problems make the exit status 3: a plugin that failed to load, crashed,
/// hung, printed to stdout, completed a fetch twice or never, or logged a
/// warning or error; two plugins with one provider name; a default or asset
/// naming a provider nothing provides. A fetch that fails cleanly (no price,
/// no network) is shown but is not a problem: the plugin behaved. Settings
/// kept for a provider not loaded are a warning only, since its plugin may be
/// dropped in later.
struct CheckCommand {
    let invocation: Invocation
    let config: Config
    let loader: PluginLoader
    let executable: String
    let output: @Sendable (String) -> Void
    let diagnostics: Diagnostics

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

    func run() -> ExitStatus {
        if let plugin = invocation.pluginPath { return conformance(of: FilePath.absolute(plugin, relativeTo: FilePath.currentDirectory)) }
        let (files, failures) = loader.candidates(config: config)
        var problems = failures.map(\.description)
        let results = files.map { probe($0) }
        var claims = ProviderCatalog.Claims()
        for result in results {
            problems += result.problems
            // A plugin that loaded provides its name, whatever else is wrong with it.
            if let name = result.name, let refusal = claims.claim(name, by: result.path) {
                problems.append("plugin \(result.path): \(refusal)")
            }
        }
        if let provider = config.defaults.provider, claims.file(providing: provider) == nil {
            problems.append("\(config.path): defaults.provider: no loaded plugin provides '\(provider)'")
        }
        for asset in config.assets.keys.sorted() {
            for provider in config.assets[asset]?.providerOrder ?? [] where claims.file(providing: provider) == nil {
                let key = config.assets[asset]?.providers != nil ? "providers" : "provider"
                problems.append("\(config.path): assets.\(asset).\(key): no loaded plugin provides '\(provider)'")
            }
        }
        let warnings = config.providerSettings.keys.sorted().filter { claims.file(providing: $0) == nil }.map {
            "\(config.path): providers.\($0): settings for a provider no loaded plugin provides (kept for when one is added)"
        }
        for problem in problems { diagnostics.error(problem) }
        for warning in warnings { diagnostics.warning(warning) }

        let healthy = results.filter { $0.problems.isEmpty && $0.name != nil }
        switch invocation.format {
        case .json:
            output(JSONValue.object(JSONObject([
                ("config", .string(config.path)),
                ("ok", .bool(problems.isEmpty)),
                ("plugins", .array(healthy.map { result in
                    .object(JSONObject([
                        ("name", .string(result.name ?? "")), ("version", .string(result.version ?? "")),
                        ("path", .string(result.path)), ("abi", .string(result.abi ?? "")),
                        ("sha256", result.sha256.map(JSONValue.string) ?? .null),
                        ("fetchers", .array(result.fetchers.map(JSONValue.string))),
                        ("fetches", .array(result.fetches.map(JSONValue.string))),
                    ]))
                })),
                ("problems", .array(problems.map(JSONValue.string))),
                ("warnings", .array(warnings.map(JSONValue.string))),
            ])).serialized)
        case .text, .csv:
            output("config \(config.path): parsed")
            for result in healthy {
                output("plugin \(result.name ?? "") \(result.version ?? "") (\(result.path)): ok, fetchers: \(result.fetchers.joined(separator: ", "))")
                for fetch in result.fetches { output("  \(fetch)") }
            }
            output(problems.isEmpty
                ? "check passed: \(healthy.count) plugin(s), \(warnings.count) warning(s)"
                : "check failed: \(problems.count) problem(s), \(warnings.count) warning(s)")
        }
        return problems.isEmpty ? .success : .configOrPlugin
    }

    /// `check --plugin PATH`: the plugin author's conformance check. Runs the plugin
    /// in a child as `check` does, plus: an unknown asset must be a clean error,
    /// concurrent fetches must each complete once, and settings with an unknown key
    /// must be reported. Each finding says what to fix.
    func conformance(of path: String) -> ExitStatus {
        let candidate = PluginLoader.Candidate(path: path, pin: nil)
        var result = probe(candidate, extraArguments: ["--conformance"])
        if result.name != nil {
            let strict = probe(candidate, extraArguments: ["--bad-settings"], relayLog: false)
            if strict.name != nil, !strict.logged {
                result.problems.append("plugin \(path): accepted settings with an unknown key (\(ProbeCommand.badSettings)) without a word; reject unknown keys (return NULL after logging why) or at least log a warning, so a typo in plugins.json is caught")
            }
        }
        for problem in result.problems { diagnostics.error(problem) }
        switch invocation.format {
        case .json:
            output(JSONValue.object(JSONObject([
                ("plugin", .string(path)), ("ok", .bool(result.problems.isEmpty)),
                ("name", result.name.map(JSONValue.string) ?? .null), ("version", result.version.map(JSONValue.string) ?? .null),
                ("fetchers", .array(result.fetchers.map(JSONValue.string))), ("fetches", .array(result.fetches.map(JSONValue.string))),
                ("findings", .array(result.problems.map(JSONValue.string))),
            ])).serialized)
        case .text, .csv:
            if let name = result.name {
                output("plugin \(name) \(result.version ?? "") (\(path)), fetchers: \(result.fetchers.joined(separator: ", "))")
                for fetch in result.fetches { output("  \(fetch)") }
            }
            output(result.problems.isEmpty ? "conformance passed" : "conformance failed: \(result.problems.count) finding(s)")
        }
        return result.problems.isEmpty ? .success : .configOrPlugin
    }

    /// Runs `pricehost __probe` on one file and reads what it says.
    func probe(_ candidate: PluginLoader.Candidate, extraArguments: [String] = [], relayLog: Bool = true) -> ProbeResult {
        var result = ProbeResult(path: candidate.path)
        // Without a config file (check --plugin with none), the probe falls back to an empty one too.
        let hasConfigFile = invocation.configPath != nil || FileManager.default.fileExists(atPath: config.path)
        var arguments = ["__probe"] + (hasConfigFile ? ["--config", config.path] : []) + ["--plugin", candidate.path] + extraArguments
        if invocation.allowInsecurePlugins { arguments.append("--allow-insecure-plugins") }
        // Loading, the probe's idle limit, and the slowest HTTP any provider's policy allows
        // (the fetches run at once), with room to spare.
        let slowestHTTP = ([ProviderPolicy()] + config.providerPolicies.values).map(\.worstCaseHTTPTime).max() ?? .zero
        let timeout = Duration.seconds(15) + ProbeCommand.fetchTimeout + slowestHTTP
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(executable, arguments, timeout: timeout)
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
