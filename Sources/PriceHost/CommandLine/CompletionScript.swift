/// The tab-completion scripts `pricehost completions SHELL` prints, made from the commands'
/// declarations (``ParsableCommand``) as `--help` is: the visible commands, each command's
/// options, and for each value what ``ValueCompletion`` says (a command's `--format` values,
/// files, directories, the config's provider names through `pricehost __complete providers`).
enum CompletionScript {
    /// The shells it writes for.
    enum Shell: String, Sendable, CaseIterable {
        case bash, zsh, fish

        /// `bash`, `zsh`, `fish`.
        static var names: [String] { allCases.map(\.rawValue) }
    }

    /// What a script knows of one visible command.
    struct Command {
        let name: String
        let summary: String
        let options: [OptionSpec]
        /// Its positional argument's completion; nil when it takes none.
        let argument: ValueCompletion?
        /// Its positional argument's name (`SHELL`).
        let argumentName: String?
    }

    /// The visible commands, in `--help`'s order.
    static var commands: [Command] {
        HelpText.visibleCommands.map {
            Command(name: $0.configuration.name, summary: $0.configuration.summary, options: $0.optionSpecs,
                    argument: $0.argumentCompletion, argumentName: $0.argumentName)
        }
    }

    /// The names of the options that take a value, for finding the command on a line: a word after one is its value.
    static var optionsTakingAValue: [String] {
        HelpText.options.filter { !$0.isFlag }.map(\.name)
    }

    /// The script for `shell`.
    static func text(for shell: Shell) -> String {
        switch shell {
        case .bash: bash
        case .zsh: zsh
        case .fish: fish
        }
    }

    /// An option's help (or, without one, its man page text) on one line, for a description.
    static func description(_ spec: OptionSpec) -> String {
        spec.description.split(separator: "\n").joined(separator: " ")
    }

    /// The first lines of every script.
    static func header(_ shell: Shell, comment: String = "#") -> String {
        """
        \(comment) \(shell.rawValue) completion for pricehost \(HelpText.version), printed by `pricehost completions \(shell.rawValue)`
        \(comment) from the same declarations as `pricehost --help`; docs/install.md says where it goes.
        """
    }
}
