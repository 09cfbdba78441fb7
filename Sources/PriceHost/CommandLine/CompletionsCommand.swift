/// `pricehost completions bash|zsh|fish`: prints the shell's tab-completion script
/// (``CompletionScript``), made from the commands' declarations as `--help` is.
struct CompletionsCommand: SynchronousCommand {
    /// `SHELL`, as given; `validate()` checks it is one of ``CompletionScript/Shell``.
    var shellName: String?

    static let configuration = CommandConfiguration(
        name: "completions",
        summary: "print the tab-completion script of bash, zsh or fish (docs/install.md says where it goes)",
        usage: [UsageLine(CompletionScript.Shell.names.joined(separator: "|"), note: "print the shell's tab-completion script")])

    static let argument: Argument<CompletionsCommand>? = Argument(valueName: "SHELL", completion: .choices(CompletionScript.Shell.names)) {
        command, name in command.shellName = name
    }

    static let options: [Option<CompletionsCommand>] = []

    /// The shell `validate()` accepted.
    var shell: CompletionScript.Shell? { shellName.flatMap(CompletionScript.Shell.init(rawValue:)) }

    func validate() throws(UsageError) {
        let choices = HelpText.list(CompletionScript.Shell.names, or: true)
        guard let shellName else { throw UsageError("completions needs a shell: \(choices)") }
        guard shell != nil else { throw UsageError("completions: '\(shellName)' is no shell it knows; choose \(choices)") }
    }

    func run(in context: CommandContext) -> ExitStatus {
        guard let shell else { return .usage }  // validate() guarantees it
        context.output(CompletionScript.text(for: shell))
        return .success
    }
}
