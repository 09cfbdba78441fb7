import PriceHostCore
import PriceHostService
import ProviderABI

/// A parsed command line: `--help`, `--version`, or one command with its options.
enum Invocation: Sendable {
    /// `-h`, `--help`, `help`.
    case help
    /// `-V`, `--version`.
    case version
    /// A command, its options checked (``ParsableCommand/validate()`` passed).
    case command(any ParsableCommand)

    /// The output format of data on stdout.
    typealias Format = OutputFormat

    /// Every command, in the order `--help` and the list of commands show them.
    static let commands: [any ParsableCommand.Type] = [
        FetchCommand.self, WatchCommand.self, ServeCommand.self, HistoryCommand.self, ProvidersCommand.self, CheckCommand.self,
        NewPluginCommand.self, CompletionsCommand.self, ProbeCommand.self, CompleteCommand.self, ManPageCommand.self,
        StoreBenchCommand.self,
    ]

    /// `--config`, for a command that loads plugins.
    var configPath: String? {
        guard case .command(let command) = self else { return nil }
        return command.pluginOptions?.configPath
    }

    /// Every option some command takes; the parser knows them before it knows the command.
    static let knownOptions: [String: OptionSpec] = {
        var known: [String: OptionSpec] = [:]
        for command in commands {
            for spec in command.optionSpecs where known[spec.name] == nil { known[spec.name] = spec }
        }
        return known
    }()

    /// Parses the arguments after the program name.
    ///
    /// Options may come before or after the command, as `--name value` or
    /// `--name=value`. Each value is checked by its declaration (``Option``),
    /// then the command's ``ParsableCommand/validate()`` runs, before anything else happens.
    /// - Throws: ``UsageError`` naming the argument that is wrong.
    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var command: (any ParsableCommand.Type)?
        var argument: String?
        var values: [(name: String, value: String)] = []
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            switch word {
            case "-h", "--help", "help":
                return .help
            case "-V", "--version":
                return .version
            case _ where word.hasPrefix("-"):
                var name = word
                var value: String?
                if let equals = word.firstIndex(of: "=") {
                    name = String(word[..<equals])
                    value = String(word[word.index(after: equals)...])
                }
                guard let spec = knownOptions[name] else {
                    throw UsageError("unknown option '\(name)'; see 'pricehost --help'")
                }
                if spec.isFlag {
                    guard value == nil else { throw UsageError("option \(name) takes no value") }
                    values.append((name, ""))
                    continue
                }
                if value == nil {
                    guard index < arguments.count else { throw UsageError("option \(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                values.append((name, value ?? ""))
            default:
                if let command, command.argumentName != nil, argument == nil {
                    argument = word
                    continue
                }
                guard command == nil else {
                    throw UsageError("unexpected argument '\(word)'; options take the form --name value")
                }
                guard let named = commands.first(where: { $0.configuration.name == word }) else {
                    let names = commands.filter { !$0.configuration.isHidden }.map { $0.configuration.name }
                    throw UsageError("unknown command '\(word)'; commands are \(names.joined(separator: ", "))")
                }
                command = named
            }
        }
        guard let command else { throw UsageError("no command given; try 'pricehost fetch --asset BTC' or 'pricehost --help'") }
        return .command(try command.parse(values, argument: argument))
    }
}
