import Glibc
import Injection
import PriceHostCore
import PriceHostHTTP
import ProviderABI

/// The `pricehost` program: parses the command line, wires the host, runs a
/// command, and turns every failure into one line on stderr and an exit status.
public struct PriceHostApp: Sendable {
    let environment: [String: String]
    let standardOutput: @Sendable (String) -> Void
    let diagnostics: Diagnostics

    /// Creates the program with its environment; data goes to stdout, diagnostics to stderr.
    public init(environment: [String: String]) {
        self.init(environment: environment, standardOutput: { LineOutput.standardOutput.writeLine($0) }, diagnostics: .process)
    }

    /// Creates the program with its environment, where data goes, and where diagnostics go.
    init(environment: [String: String],
                standardOutput: @escaping @Sendable (String) -> Void = { LineOutput.standardOutput.writeLine($0) },
                diagnostics: Diagnostics = .process) {
        self.environment = environment
        self.standardOutput = standardOutput
        self.diagnostics = diagnostics
    }

    /// What ``start(_:)`` leaves to do.
    public enum Start: Sendable {
        /// The command ran (`--help`, `--version`) or the command line was refused: exit with this.
        case finished(ExitStatus)
        /// A command that needs Swift concurrency: ``run(_:)-(Command)`` it.
        case command(Command)
    }

    /// A parsed command line, ready to run.
    public struct Command: Sendable {
        let invocation: Invocation
    }

    /// Parses `arguments` (without the program name) and answers what needs no
    /// concurrency, so that `--version` never starts an async main.
    public func start(_ arguments: [String]) -> Start {
        let invocation: Invocation
        do {
            invocation = try Invocation.parse(arguments)
        } catch {
            diagnostics.error(error.description)
            return .finished(.usage)
        }
        switch invocation.command {
        case .help:
            standardOutput(HelpText.usage)
            return .finished(.success)
        case .version:
            standardOutput(HelpText.versionLine)
            return .finished(.success)
        case .newPlugin:
            return .finished(NewPluginCommand(invocation: invocation, executableDirectory: ExecutableLocation.directory,
                                              currentDirectory: FilePath.currentDirectory, output: standardOutput,
                                              diagnostics: diagnostics).run())
        default:
            return .command(Command(invocation: invocation))
        }
    }

    /// Runs the program with `arguments` (without the program name).
    public func run(_ arguments: [String]) async -> ExitStatus {
        switch start(arguments) {
        case .finished(let status): status
        case .command(let command): await run(command)
        }
    }

    /// Runs a command that ``start(_:)`` left to do.
    public func run(_ command: Command) async -> ExitStatus {
        let invocation = command.invocation
        if invocation.command != .fetch, invocation.command != .watch, invocation.format == .csv {
            diagnostics.error("\(invocation.command.rawValue) supports --format text or json")
            return .usage
        }

        let config: Config
        if invocation.pluginPath != nil, invocation.configPath == nil {
            // `check --plugin` (and its probes) without `--config`: the plugin gets `{}`,
            // whatever ./plugins.json or PRICEHOST_CONFIG say, as PLUGINS.md promises.
            config = Config(path: FilePath.absolute("plugins.json", relativeTo: FilePath.currentDirectory), directory: FilePath.currentDirectory)
        } else {
            do {
                config = try CompositionRoot.loadConfig(invocation: invocation, environment: environment)
            } catch {
                diagnostics.error(error.description)
                return .configOrPlugin
            }
        }
        // Before any plugin runs: its stray prints must not reach the data channel.
        _ = LineOutput.standardOutput
        if invocation.command == .serve {
            // The access log is at info: on unless PRICEHOST_LOG asks for less.
            let serveDiagnostics = environment["PRICEHOST_LOG"] == nil && diagnostics === Diagnostics.process
                ? Diagnostics(threshold: .info) : diagnostics
            return await ServeCommand(invocation: invocation, environment: environment, diagnostics: serveDiagnostics).run(config: config)
        }
        let container = CompositionRoot.makeContainer(config: config, diagnostics: diagnostics,
                                                      libcurl: environment["PRICEHOST_LIBCURL"] ?? LibCurl.defaultName)
        var options = PluginLoader.Options()
        options.fetchTimeout = { [config] provider in config.policy(for: provider).fetchDeadline }
        options.allowInsecure = invocation.allowInsecurePlugins
        // Hashes are printed by `providers --format json` and `check`; the text listing has no use for them.
        options.computeHashes = invocation.command == .check || invocation.command == .probe
            || (invocation.command == .providers && invocation.format == .json)
        if invocation.command == .probe {
            options.fetchTimeout = { _ in ProbeCommand.fetchTimeout }
            if invocation.badSettings { options.settingsOverride = ProbeCommand.badSettings }
            // The probe's own process group, so check can kill whatever a plugin leaves running.
            setpgid(0, 0)
        }
        let loader = CompositionRoot.makeLoader(config: config, environment: environment, diagnostics: diagnostics,
                                                container: container, options: options)

        let catalog = CompositionRoot.makeCatalog(loader: loader, config: config, container: container)
        switch invocation.command {
        case .check:
            // No plugin is loaded in this process: each runs in a child of its own.
            return CheckCommand(invocation: invocation, config: config, loader: loader,
                                executable: ExecutableLocation.path ?? CommandLine.arguments[0],
                                output: standardOutput, diagnostics: diagnostics).run()
        case .probe:
            return await ProbeCommand(invocation: invocation, config: config, catalog: catalog, output: standardOutput).run()
        default:
            break
        }
        // A fetch loads plugins only until the providers it routes to are loaded;
        // watch loads them all, as it keeps serving whatever appears.
        catalog.load(until: invocation.command == .fetch
            ? QuoteService.providersNeeded(for: invocation.assets, explicitProviders: invocation.providers, config: config) : nil)
        // Two plugins with one provider name: fetch takes the first in config order
        // (it stops loading once its providers are found); a command that loads
        // them all refuses to start, naming both files.
        if invocation.command != .fetch, !catalog.duplicates.isEmpty {
            for duplicate in catalog.duplicates { diagnostics.error(duplicate.description) }
            return .configOrPlugin
        }
        let status: ExitStatus
        switch invocation.command {
        case .watch:
            status = await WatchCommand(invocation: invocation, config: config, catalog: catalog, container: container,
                                      output: standardOutput, diagnostics: diagnostics).run()
        case .fetch:
            let service = QuoteService(container: container, catalog: catalog, warn: { [diagnostics] in diagnostics.warning($0) })
            status = await FetchCommand(invocation: invocation, service: service, output: standardOutput, diagnostics: diagnostics).run()
        default:
            return ProvidersCommand(invocation: invocation, report: catalog.report, output: standardOutput).run()
        }
        // No libcurl is a broken install, not a market's bad day: the error lines said what to install.
        if status != .success, CompositionRoot.networkingLoadFailure(in: container) != nil { return .configOrPlugin }
        return status
    }

}
