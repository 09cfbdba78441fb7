import ConcurrencyHelpers
import ChildProcesses
import Glibc
import FoundationEssentials
import PriceHostCore
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
struct CheckCommand: LoadsPlugins {
    var plugins = PluginOptions()
    /// `--format`.
    var format = Invocation.Format.text
    /// `--plugin PATH`: the conformance check of one plugin file.
    var pluginPath: String?

    func run(in context: CommandContext) async -> ExitStatus {
        guard let config = context.loadConfig(for: self, pluginPath: pluginPath) else { return .configOrPlugin }
        // No plugin is loaded in this process: each runs in a child of its own.
        let host = context.makeHost(config: config, plugins: plugins, computeHashes: true)
        let executable = ExecutableLocation.path ?? CommandLine.arguments[0]
        // Each plugin runs in a probe, a child in a process group of its own: a check that is
        // ended by a signal (a caller's timeout, Ctrl-C, a closed terminal) kills them, and what
        // they started, first, then exits with 128 + the signal, as a shell reports it.
        let group = ServiceGroup(services: [], signals: context.signals, stopSignals: [SIGTERM, SIGINT, SIGHUP]) { ending in
            guard case .signal(let number) = ending else { return }
            // Holding the data channel: with its probes killed, check would otherwise go on to
            // print its report and exit 3 before this exit.
            LineOutput.standardOutput.endingProcess {
                ChildProcess.killAll()
                _exit(128 + number)
            }
        }
        let status = Lock(ExitStatus.success)
        do {
            // The probes are waited for on a thread of their own, off Swift concurrency's pool.
            _ = try await group.run { _ in
                let checked = await DetachedThread.run { check(host, executable: executable, context) }
                status.withLock { $0 = checked }
            }
        } catch {
            context.diagnostics.error(error.description)
            return .configOrPlugin
        }
        return status.withLock { $0 }
    }

    private func check(_ host: PluginHost, executable: String, _ context: CommandContext) -> ExitStatus {
        let config = host.config, loader = host.loader, output = context.output, diagnostics = context.diagnostics
        if let plugin = pluginPath {
            return conformance(of: FilePath.absolute(plugin, relativeTo: FilePath.currentDirectory), host, executable: executable, context)
        }
        let (files, failures) = loader.candidates(config: config)
        var problems = failures.map(\.description)
        var results = files.map { probe($0, config: config, executable: executable, context) }
        var claims = ProviderCatalog.Claims()
        for index in results.indices {
            // A plugin that loaded provides its name, whatever else is wrong with it;
            // the second file with a name is a problem, never listed as ok.
            if let name = results[index].name, let refusal = claims.claim(name, by: results[index].path) {
                results[index].problems.append("plugin \(results[index].path): \(refusal)")
            }
            problems += results[index].problems
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
        for line in CheckReportFormatter.lines(configPath: config.path, healthy: healthy, problems: problems,
                                               warnings: warnings, format: format) { output(line) }
        return problems.isEmpty ? .success : .configOrPlugin
    }

    /// `check --plugin PATH`: the plugin author's conformance check. Runs the plugin
    /// in a child as `check` does, plus: an unknown asset must be a clean error,
    /// concurrent fetches must each complete once, and settings with an unknown key
    /// must be reported. Each finding says what to fix.
    func conformance(of path: String, _ host: PluginHost, executable: String, _ context: CommandContext) -> ExitStatus {
        let config = host.config, output = context.output, diagnostics = context.diagnostics
        let candidate = PluginLoader.Candidate(path: path, pin: nil)
        var result = probe(candidate, extraArguments: ["--conformance"], config: config, executable: executable, context)
        if result.name != nil {
            let strict = probe(candidate, extraArguments: ["--bad-settings"], relayLog: false, config: config, executable: executable, context)
            if strict.name != nil, !strict.logged {
                result.problems.append("plugin \(path): accepted settings with an unknown key (\(ProbeCommand.badSettings)) without a word; reject unknown keys (return NULL after logging why) or at least log a warning, so a typo in plugins.json is caught")
            }
        }
        if let name = result.name, plugins.configPath != nil {
            result.problems += clashes(of: name, at: path, host, executable: executable, context)
        }
        for problem in result.problems { diagnostics.error(problem) }
        for line in CheckReportFormatter.conformanceLines(path: path, result: result, format: format) { output(line) }
        return result.problems.isEmpty ? .success : .configOrPlugin
    }

    /// With `--config`, the config's plugins (other than `path` itself) that
    /// provide `name` too: each is loaded, without fetching, in a child of its own.
    private func clashes(of name: String, at path: String, _ host: PluginHost, executable: String, _ context: CommandContext) -> [String] {
        let config = host.config
        let plugin = PluginLoader.realPath(path) ?? path
        return host.loader.candidates(config: config).files
            .filter { (PluginLoader.realPath($0.path) ?? $0.path) != plugin }
            .compactMap { candidate in
                let other = probe(candidate, extraArguments: ["--load-only"], relayLog: false, config: config, executable: executable, context)
                guard other.name == name else { return nil }
                return "plugin \(path): provider '\(name)' is also provided by \(other.path) in \(config.path); a fetch would use whichever is listed first, and providers, check and watch refuse to start; rename one"
            }
    }
}
