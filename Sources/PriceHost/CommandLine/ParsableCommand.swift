/// A command of `pricehost`: its name and usage lines, the options it takes,
/// declared once, and the checks that need all of them. The parser
/// (``Invocation/parse(_:)``), `--help` (``HelpText``) and every usage error
/// are made from these declarations.
protocol ParsableCommand: Sendable, Equatable {
    /// Its name and what `--help` says about it.
    static var configuration: CommandConfiguration { get }
    /// The options it takes, in the order `--help` lists them.
    static var options: [Option<Self>] { get }
    /// Its positional argument, if it takes one.
    static var argument: Argument<Self>? { get }
    /// Nothing given yet: every option at its default.
    init()
    /// Checks what the options cannot check one at a time (a required option,
    /// the argument), once all are stored.
    mutating func validate() throws(UsageError)

    // What kind of command it is, through its witness table rather than a dynamic cast
    // (`as? any AsyncCommand`): a cast to a protocol looks through every conformance
    // record of the process the first time, a measurable part of a cold start.
    /// Itself, when it runs before Swift concurrency starts.
    var synchronous: (any SynchronousCommand)? { get }
    /// Itself, when it runs in a task.
    var asynchronous: (any AsyncCommand)? { get }
    /// Its `--config` and `--allow-insecure-plugins`, when it loads plugins.
    var pluginOptions: PluginOptions? { get }
}

/// A command that runs in a task (everything that loads plugins).
protocol AsyncCommand: ParsableCommand {
    /// Wires what it needs and runs.
    func run(in context: CommandContext) async -> ExitStatus
}

/// A command that runs before Swift concurrency starts (`new-plugin`).
protocol SynchronousCommand: ParsableCommand {
    /// Runs.
    func run(in context: CommandContext) -> ExitStatus
}

extension AsyncCommand {
    var asynchronous: (any AsyncCommand)? { self }
}

extension SynchronousCommand {
    var synchronous: (any SynchronousCommand)? { self }
}

/// A command's name and what `--help`, the man page and tab completion say about it.
struct CommandConfiguration: Sendable {
    /// `fetch`, as typed.
    var name: String
    /// What it does, in a line: the man page's COMMANDS and the descriptions of zsh's and fish's completion.
    var summary: String
    /// Its lines under USAGE.
    var usage: [UsageLine]
    /// Internal (`__probe`): parsed, but not in `--help` nor the list of commands.
    var isHidden = false
}

/// One line under USAGE: `pricehost NAME` and then `words`, where `--name`
/// stands for an option with its value (`[--name]`: an optional one) and any
/// other word is printed as it is; then, after `gap` spaces, a note.
struct UsageLine: Sendable {
    var words: [String]
    var note: String?
    var gap = 3

    init(_ words: String..., note: String? = nil, gap: Int = 3) {
        self.words = words
        self.note = note
        self.gap = gap
    }
}

extension ParsableCommand {
    static var argument: Argument<Self>? { nil }

    var synchronous: (any SynchronousCommand)? { nil }
    var asynchronous: (any AsyncCommand)? { nil }
    var pluginOptions: PluginOptions? { nil }

    mutating func validate() throws(UsageError) {}

    /// What the help and the parser need to know of its options.
    static var optionSpecs: [OptionSpec] { options.map(\.spec) }

    /// `NAME`, when it takes a positional argument.
    static var argumentName: String? { argument?.valueName }

    /// What tab completion offers for its positional argument; nil when it takes none.
    static var argumentCompletion: ValueCompletion? { argument?.completion }

    /// True when `other` is this very command line.
    func isEqual(to other: any ParsableCommand) -> Bool {
        (other as? Self) == self
    }

    /// Stores `values` (the options, in the order given) and `argument`, then validates.
    /// - Throws: ``UsageError``: an option this command does not take, one given twice, a bad value.
    static func parse(_ values: [(name: String, value: String)], argument: String?) throws(UsageError) -> Self {
        var command = Self()
        var seen = Set<String>()
        for (name, value) in values {
            guard let option = options.first(where: { $0.spec.name == name }) else {
                throw UsageError("option \(name) does not apply to '\(configuration.name)'")
            }
            guard option.spec.isRepeatable || seen.insert(name).inserted else { throw UsageError("option \(name) is given twice") }
            try option.apply(&command, value)
        }
        if let argument, let declared = Self.argument { declared.apply(&command, argument) }
        try command.validate()
        return command
    }

    /// Its lines under USAGE, without the leading `pricehost `.
    static var usageLines: [String] {
        configuration.usage.map { line in
            let words = line.words.map { word in
                let optional = word.hasPrefix("[") && word.hasSuffix("]")
                let name = optional ? String(word.dropFirst().dropLast()) : word
                guard let spec = optionSpecs.first(where: { $0.name == name }) else { return word }
                return optional ? "[\(spec.synopsis)]" : spec.synopsis
            }
            let synopsis = ([configuration.name] + words).joined(separator: " ")
            return line.note.map { synopsis + String(repeating: " ", count: line.gap) + $0 } ?? synopsis
        }
    }
}
