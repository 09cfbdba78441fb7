import Glibc
import Injection
import PriceHostCore
import PriceHostHTTP
import ProviderABI

/// The `pricehost` program: parses the command line into a command
/// (``ParsableCommand``), which wires what it needs and runs; every failure is
/// one line on stderr and an exit status.
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
        /// The command ran (`--help`, `--version`, `new-plugin`) or the command line was refused: exit with this.
        case finished(ExitStatus)
        /// A command that needs Swift concurrency: ``run(_:)-(Command)`` it.
        case command(Command)
    }

    /// A parsed command line, ready to run.
    public struct Command: Sendable {
        let command: any AsyncCommand
    }

    /// What the commands run with.
    var context: CommandContext {
        CommandContext(environment: environment, output: standardOutput, diagnostics: diagnostics)
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
        switch invocation {
        case .help:
            standardOutput(HelpText.usage)
            return .finished(.success)
        case .version:
            standardOutput(HelpText.versionLine)
            return .finished(.success)
        case .command(let command):
            if let synchronous = command.synchronous { return .finished(synchronous.run(in: context)) }
            guard let asynchronous = command.asynchronous else {
                fatalError("\(type(of: command)) is neither a SynchronousCommand nor an AsyncCommand")
            }
            return .command(Command(command: asynchronous))
        }
    }

    /// Runs the program with `arguments` (without the program name).
    public func run(_ arguments: [String]) async -> ExitStatus {
        switch start(arguments) {
        case .finished(let status): status
        case .command(let command): await run(command)
        }
    }

    /// Runs a command that ``start(_:)`` left to do: the command wires what it needs and runs.
    public func run(_ command: Command) async -> ExitStatus {
        await command.command.run(in: context)
    }
}
